export declare const ROLES: readonly ['admin', 'manager', 'technician', 'viewer'];
export type Role = (typeof ROLES)[number];
export declare function canWriteLibrary(role: Role | null | undefined): boolean;
export declare function canDeleteManuals(role: Role | null | undefined): boolean;
export declare function canManageRoles(role: Role | null | undefined): boolean;
export declare function seesSystemPlanners(role: Role | null | undefined): boolean;
