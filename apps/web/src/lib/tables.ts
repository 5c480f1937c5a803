import type { TableClient } from '@fieldassist/client';

import { client } from '@/lib/client';

// Rows as the app sees them (SPEC.md section 3), camelCase; the REST API converts.

export const JOB_STATUSES = ['pending', 'in-progress', 'completed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_PRIORITIES = ['low', 'medium', 'high'] as const;
export type JobPriority = (typeof JOB_PRIORITIES)[number];

export interface Job {
  id: string;
  userId: string;
  title: string;
  description: string;
  status: JobStatus;
  priority: JobPriority;
  /** ms timestamps */
  createdAt: number;
  updatedAt: number;
}

export interface UserRecord {
  id: string;
  email: string;
  emailVerified: number;
  displayName: string | null;
  phone: string | null;
  phoneVerified: number;
  avatarUrl: string | null;
  role: string | null;
  createdAt: string;
  updatedAt: string;
  lastSignIn: string | null;
}

export const USER_ROLES = ['admin', 'manager', 'technician', 'viewer'] as const;
export type UserRoleName = (typeof USER_ROLES)[number];

export interface UserRoleRecord {
  id: string;
  userId: string;
  role: UserRoleName;
  createdAt: string;
  updatedAt: string;
  assignedBy: string | null;
}

// The app's client is untyped (other screens add their own tables); these give the tables
// this part of the app reads their row types.
export const jobsTable = client.db.table('jobs') as unknown as TableClient<Job>;
export const usersTable = client.db.table('users') as unknown as TableClient<UserRecord>;
export const userRolesTable = client.db.table('userRoles') as unknown as TableClient<UserRoleRecord>;
