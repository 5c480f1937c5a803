// Client-side role checks (SPEC.md §6, PLATFORM_API.md §2.12). Advisory only: the server
// enforces access through its table policies.
import type { RoleConfig } from './types.js';

/** True when the user's role equals `role`, or is one of `role` when given a list. */
export function hasRole(userRole: string | null | undefined, role: string | readonly string[]): boolean {
  if (!userRole) return false;
  return typeof role === 'string' ? userRole === role : role.includes(userRole);
}

/**
 * Whether `userRole` grants `action` (on `resource`): its permissions, or those of the
 * roles it inherits (recursively; a role seen twice is skipped, so cycles end), contain
 * '*', 'action.resource' or 'action'. False without a role, a config or a config entry.
 */
export function can(
  roles: RoleConfig | undefined,
  userRole: string | null | undefined,
  action: string,
  resource?: string,
): boolean {
  if (!roles || !userRole) return false;
  const wanted = resource ? ['*', `${action}.${resource}`, action] : ['*', action];
  const seen = new Set<string>();
  const grants = (name: string): boolean => {
    if (seen.has(name) || !Object.hasOwn(roles, name)) return false;
    seen.add(name);
    const definition = roles[name]!;
    if (definition.permissions.some((permission) => wanted.includes(permission))) return true;
    return (definition.inherit ?? []).some(grants);
  };
  return grants(userRole);
}
