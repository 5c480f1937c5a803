import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { canManageRoles, ROLES } from '@fieldassist/client/roles';
import { z } from 'zod';
import { requireSignedIn, requireUser } from '../../auth/caller.js';
import type { AuthContext } from '../../auth/context.js';
import { ApiError } from '../../errors.js';
import { inviteUser } from './service.js';

export const ZInviteUserBody = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email().max(254)),
  displayName: z.string().trim().min(1).max(200),
  phone: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((phone) => phone || undefined),
  role: z.enum(ROLES),
});
export type InviteUserBody = z.infer<typeof ZInviteUserBody>;

// Checked before the body, so a caller who may not add users learns nothing from a 400.
async function requireAdmin(request: FastifyRequest) {
  requireSignedIn(request.caller);
  const user = requireUser(request.caller);
  if (!canManageRoles(user.role)) throw new ApiError('FORBIDDEN', 'Only admins can add users');
}

/** POST /api/app/{projectId}/invitations: an admin adds a user with a role and emails them a sign-in link. */
export function registerInvitationRoutes(app: FastifyInstance, ctx: AuthContext) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/app/:projectId/invitations',
      { preValidation: requireAdmin, schema: { body: ZInviteUserBody } },
      async (request, reply) => {
        const admin = requireUser(request.caller);
        const { rows } = await ctx.pool.query<{ display_name: string | null }>(
          'SELECT display_name FROM users WHERE id = $1',
          [admin.email],
        );
        const inviter = { email: admin.email, displayName: rows[0]?.display_name };
        const invited = await inviteUser(ctx, { inviter, ...request.body }, (message) => request.log.warn(message));
        return reply.status(201).send(invited);
      },
    );
}
