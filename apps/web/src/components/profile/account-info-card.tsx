import type { ReactNode } from 'react';

import { RoleBadge } from '@/components/profile/role-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

type AccountInfoCardProps = {
  email: string;
  displayName: string | null;
  createdAt: string | null;
  emailVerified: boolean;
  /** undefined while loading */
  role: string | null | undefined;
};

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

/** SPEC.md section 2, Profile: the Account Information card. */
export function AccountInfoCard({ email, displayName, createdAt, emailVerified, role }: AccountInfoCardProps) {
  const rows: [string, ReactNode][] = [
    ['Name', displayName || '—'],
    ['Email', email],
    ['Role', role === undefined ? '…' : <RoleBadge role={role} />],
    ['Email status', emailVerified ? 'Verified' : 'Not verified'],
    ['Member since', createdAt ? dateFormat.format(new Date(createdAt)) : '—'],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Information</CardTitle>
        <CardDescription>Your account details</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm">
          {rows.map(([term, value]) => (
            <div key={term} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
              <dt className="text-muted-foreground">{term}</dt>
              <dd className="min-w-0 font-medium wrap-anywhere">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
