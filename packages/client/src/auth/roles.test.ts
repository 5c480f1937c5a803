import { describe, expect, it } from 'vitest';
import { can, hasRole } from './roles.js';
import type { RoleConfig } from './types.js';

const roles: RoleConfig = {
  admin: { permissions: ['*'] },
  manager: { permissions: ['upload.manuals'], inherit: ['technician'] },
  technician: { permissions: ['read', 'create.jobs'], inherit: ['viewer'] },
  viewer: { permissions: ['view.manuals'] },
  // a → b → a: a cycle must end, not overflow the stack.
  a: { permissions: [], inherit: ['b'] },
  b: { permissions: ['ping'], inherit: ['a', 'missing'] },
  c: { permissions: [], inherit: ['c'] },
};

describe('hasRole', () => {
  it('compares with one role or a list, and is false without a role', () => {
    expect(hasRole('admin', 'admin')).toBe(true);
    expect(hasRole('viewer', 'admin')).toBe(false);
    expect(hasRole('manager', ['admin', 'manager'])).toBe(true);
    expect(hasRole('viewer', ['admin', 'manager'])).toBe(false);
    expect(hasRole(null, 'admin')).toBe(false);
    expect(hasRole(undefined, [])).toBe(false);
  });
});

describe('can', () => {
  it("'*' grants everything", () => {
    expect(can(roles, 'admin', 'delete', 'manuals')).toBe(true);
    expect(can(roles, 'admin', 'anything')).toBe(true);
  });

  it("grants on 'action.resource' or on the bare 'action'", () => {
    expect(can(roles, 'technician', 'create', 'jobs')).toBe(true);
    expect(can(roles, 'technician', 'create', 'manuals')).toBe(false);
    expect(can(roles, 'technician', 'read', 'anything')).toBe(true);
    expect(can(roles, 'technician', 'read')).toBe(true);
    expect(can(roles, 'viewer', 'view')).toBe(false); // 'view.manuals' does not grant the bare action
  });

  it('follows inherited roles recursively', () => {
    expect(can(roles, 'manager', 'upload', 'manuals')).toBe(true);
    expect(can(roles, 'manager', 'create', 'jobs')).toBe(true); // from technician
    expect(can(roles, 'manager', 'view', 'manuals')).toBe(true); // from viewer, two levels up
    expect(can(roles, 'manager', 'delete', 'manuals')).toBe(false);
  });

  it('ends on cycles and skips unknown inherited roles', () => {
    expect(can(roles, 'a', 'ping')).toBe(true);
    expect(can(roles, 'a', 'pong')).toBe(false);
    expect(can(roles, 'c', 'x')).toBe(false);
  });

  it('is false without a role, a config or a config entry', () => {
    expect(can(roles, null, 'read')).toBe(false);
    expect(can(undefined, 'admin', 'read')).toBe(false);
    expect(can(roles, 'ghost', 'read')).toBe(false);
    expect(can(roles, 'toString', 'read')).toBe(false); // not an inherited object property
  });
});
