import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';

export interface OidcPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

/**
 * A real OpenID Connect provider (oidc-provider) on loopback, standing in for a company's
 * single sign-on. Its login page is one form: pressing "Sign in" signs in as `person`.
 */
export async function startOidcPeer(opts: {
  redirectUri: string;
  clientId?: string;
  clientSecret?: string;
  person: () => OidcPerson;
}) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const clientId = opts.clientId ?? 'fieldassist-test';
  const clientSecret = opts.clientSecret ?? 'fieldassist-test-secret-0123456789';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ ...opts.person(), sub }) }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['oidc-peer-test-key'] },
  });

  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'GET') {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!doctype html><title>Company sign-in</title><h1>Company sign-in</h1><form method="post"><button type="submit">Sign in as ${opts.person().email}</button></form>`,
      );
      return;
    }
    const accountId = opts.person().sub;
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: false },
    );
  }

  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error: Error) => {
        res.statusCode = 500;
        res.end(error.message);
      });
      return;
    }
    handle(req, res);
  });
  return { issuer, clientId, clientSecret, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
