import { useId, useState, type FormEvent } from 'react';
import { z } from 'zod';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import type { NewJob } from '@/hooks/use-jobs';
import { JOB_PRIORITIES, type JobPriority } from '@/lib/tables';

// SPEC.md section 5: title and description required, priority from the fixed list, no length limits.
const ZNewJob = z.object({
  title: z.string().trim().min(1, 'Job title is required'),
  description: z.string().trim().min(1, 'Description is required'),
  priority: z.enum(JOB_PRIORITIES),
});

const PRIORITY_LABELS: Record<JobPriority, string> = { low: 'Low', medium: 'Medium', high: 'High' };

type JobFormProps = { submitting: boolean; onSubmit: (job: NewJob) => Promise<unknown>; onCancel: () => void };

/** 'Create New Job': title, description, priority (default Medium), Create Job and Cancel. */
export function JobForm({ submitting, onSubmit, onCancel }: JobFormProps) {
  const id = useId();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [priority, setPriority] = useState<JobPriority>('medium');
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZNewJob.safeParse({ title, description, priority });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    setProblem(undefined);
    await onSubmit(parsed.data);
  };

  return (
    <Card className="mb-6">
      <CardHeader>
        <CardTitle>Create New Job</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" aria-label="Create New Job">
          <div className="grid gap-2">
            <Label htmlFor={`${id}-title`}>Job Title</Label>
            <Input
              id={`${id}-title`}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              placeholder="e.g., AC Unit Repair"
              required
              autoFocus
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-description`}>Description</Label>
            <Textarea
              id={`${id}-description`}
              rows={3}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              placeholder="What needs to be done?"
              required
            />
          </div>
          <div className="grid gap-2 sm:max-w-xs">
            <Label id={`${id}-priority`}>Priority</Label>
            <Select value={priority} onValueChange={(value) => setPriority(value as JobPriority)}>
              <SelectTrigger aria-labelledby={`${id}-priority`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {JOB_PRIORITIES.map((value) => (
                  <SelectItem key={value} value={value}>
                    {PRIORITY_LABELS[value]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {problem && <Alert>{problem}</Alert>}
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Creating…' : 'Create Job'}
            </Button>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
