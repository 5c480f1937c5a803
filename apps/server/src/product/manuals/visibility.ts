import { seesSystemPlanners, type Role } from '@fieldassist/client/roles';

/**
 * The one rule for which manuals a caller may see (SPEC.md section 6: system planners only for
 * admins and technicians), as a SQL condition on the manuals row named `manual` (the table or
 * its alias in the query). It holds no input and no parameter, so the REST policy, retrieval and
 * file access add the very same text to their own queries.
 */
export function manualVisibleTo(role: Role | null, manual = 'manuals'): string {
  return seesSystemPlanners(role) ? 'TRUE' : `${manual}.document_type <> 'system_planner'`;
}
