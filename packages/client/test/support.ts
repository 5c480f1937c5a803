// Shared by the integration tests: the product's row types and a client on a real server.
import { afterAll, beforeAll } from 'vitest';
import { startTestServer } from '../../../apps/server/src/test-support/test-server.js';
import { createClient, type FieldAssistClient } from '../src/index.js';

export interface Job {
  id: string;
  userId: string;
  title: string;
  description: string;
  status: 'pending' | 'in-progress' | 'completed';
  priority: 'low' | 'medium' | 'high';
  createdAt: number;
  updatedAt: number;
}

export interface User {
  id: string;
  email: string;
  emailVerified: number;
  displayName: string | null;
  phone: string | null;
  role: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UserRole {
  id: string;
  userId: string;
  role: 'admin' | 'technician' | 'manager' | 'viewer';
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

export interface Tag {
  id: string;
  name: string;
  color: string;
  createdAt: string;
  createdBy: string | null;
}

export interface Tables {
  jobs: Job;
  users: User;
  userRoles: UserRole;
  releaseVersions: ReleaseVersion;
  tags: Tag;
}

export interface ServerHandle {
  url: string;
  projectId: string;
  serviceKey: string;
  client: FieldAssistClient<Tables>;
}

/** Starts the real server (own fresh database) for the calling test file; stops it afterwards. */
export function useServer(): ServerHandle {
  const handle = {} as ServerHandle;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const server = await startTestServer();
    close = () => server.close();
    Object.assign(handle, {
      url: server.url,
      projectId: server.projectId,
      serviceKey: server.serviceKey,
      client: createClient<Tables>({ projectId: server.projectId, baseUrl: server.url, secretKey: server.serviceKey }),
    });
  });
  afterAll(async () => {
    await close?.();
  });
  return handle;
}

let counter = 0;
/** A value no other test uses, so tests sharing a database never see each other's rows. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}
