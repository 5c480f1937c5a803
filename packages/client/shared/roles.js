// The one role model (SPEC.md section 6), imported by the server and the web app alike.
// Plain JavaScript with its types beside it, so both load it as it is, with no build step.

/** Every role a user can hold; no userRoles row means no role. */
export const ROLES = ['admin', 'manager', 'technician', 'viewer'];

/** Admins and technicians write the library: versions, tags and manuals. Managers and viewers read it. */
export function canWriteLibrary(role) {
  return role === 'admin' || role === 'technician';
}

/** Only admins delete manuals (and versions and tags). */
export function canDeleteManuals(role) {
  return role === 'admin';
}

/** Only admins add users and assign or delete user roles. */
export function canManageRoles(role) {
  return role === 'admin';
}

/** Documents of type system_planner are seen only by those who write the library. */
export function seesSystemPlanners(role) {
  return canWriteLibrary(role);
}
