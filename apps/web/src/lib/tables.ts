import type { Manual, TableClient } from '@fieldassist/client';
import type { Role } from '@fieldassist/client/roles';

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

export type UserRoleName = Role;

export interface UserRoleRecord {
  id: string;
  userId: string;
  role: UserRoleName;
  createdAt: string;
  updatedAt: string;
  assignedBy: string | null;
}

export interface ReleaseVersion {
  id: string;
  versionName: string;
  releaseYear: number;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

// A manual is what the SDK's client.manuals.save answers, and a row of the manuals table.
export type { Manual, ProcessingStatus } from '@fieldassist/client';

export interface Tag {
  id: string;
  name: string;
  color: string;
  createdAt: string;
  createdBy: string | null;
}

export interface ManualTag {
  id: string;
  manualId: string;
  tagId: string;
  createdAt: string;
}

// The app's client is untyped (other screens add their own tables); these give the tables
// this part of the app reads their row types.
export const jobsTable = client.db.table('jobs') as unknown as TableClient<Job>;
export const usersTable = client.db.table('users') as unknown as TableClient<UserRecord>;
export const userRolesTable = client.db.table('userRoles') as unknown as TableClient<UserRoleRecord>;
export const releaseVersionsTable = client.db.table('releaseVersions') as unknown as TableClient<ReleaseVersion>;
export const manualsTable = client.db.table('manuals') as unknown as TableClient<Manual>;
export const tagsTable = client.db.table('tags') as unknown as TableClient<Tag>;
export const manualTagsTable = client.db.table('manualTags') as unknown as TableClient<ManualTag>;
