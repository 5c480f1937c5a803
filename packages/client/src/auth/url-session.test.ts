import { describe, expect, it } from 'vitest';
import { buildLoginUrl, buildProviderUrl, trustedOrigins } from './hosted-page.js';
import { magicTokenFromSearch, randomHex, tokensFromSearch, URL_AUTH_PARAMS, withoutParams } from './url-session.js';

const T0 = 1_700_000_000;

describe('tokens in the URL', () => {
  it('reads access and refresh token with the assumed lifetimes, ignoring URL lifetimes', () => {
    expect(
      tokensFromSearch('?tab=2&access_token=a.b.c&refresh_token=rt_1&expires_in=5&refresh_expires_in=5', T0),
    ).toEqual({
      access_token: 'a.b.c',
      refresh_token: 'rt_1',
      token_type: 'Bearer',
      expires_in: 900,
      refresh_expires_in: 2_592_000,
      issued_at: T0,
    });
  });

  it('has no refresh lifetime without a refresh token, and nothing without an access token', () => {
    expect(tokensFromSearch('?access_token=a', T0)).toEqual({
      access_token: 'a',
      token_type: 'Bearer',
      expires_in: 900,
      issued_at: T0,
    });
    expect(tokensFromSearch('?refresh_token=r', T0)).toBeNull();
    expect(tokensFromSearch('', T0)).toBeNull();
  });

  it('cleans every auth parameter and keeps the rest of the URL', () => {
    const href =
      'https://app.example/dash?tab=2&access_token=a&refresh_token=r&token_type=Bearer&project_id=p&expires_in=1' +
      '&refresh_expires_in=2&state=s&code=c&error=e&error_description=d&keep=me#section';
    expect(withoutParams(href, URL_AUTH_PARAMS)).toBe('https://app.example/dash?tab=2&keep=me#section');
    expect(withoutParams('https://app.example/?access_token=a', URL_AUTH_PARAMS)).toBe('https://app.example/');
  });

  it('finds the magic-link token in magic_token, else token', () => {
    expect(magicTokenFromSearch('?token=t&magic_token=m')).toEqual({ token: 'm', param: 'magic_token' });
    expect(magicTokenFromSearch('?token=t')).toEqual({ token: 't', param: 'token' });
    expect(magicTokenFromSearch('?other=1')).toBeNull();
  });

  it('makes 32-hex OAuth states', () => {
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(16)).not.toBe(randomHex(16));
  });
});

describe('hosted page URLs', () => {
  it('login: redirect_url without its own redirect parameters, and the project id', () => {
    const url = new URL(
      buildLoginUrl('http://h:3000', 'fieldassist', 'http://h:3000/app?x=1&redirect_url=old&redirect=old', {
        state: 's',
      }),
    );
    expect(url.origin + url.pathname).toBe('http://h:3000/auth');
    expect(url.searchParams.get('redirect_url')).toBe('http://h:3000/app?x=1');
    expect(url.searchParams.get('project_id')).toBe('fieldassist');
  });

  it('provider sign-in: provider, project, state, mode, redirect and opener origin', () => {
    const url = new URL(
      buildProviderUrl({
        baseUrl: 'http://h:3000/',
        projectId: 'p',
        provider: 'google',
        state: 's',
        mode: 'popup',
        redirectUrl: 'http://app',
        openerOrigin: 'http://app',
      }),
    );
    expect(url.pathname).toBe('/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      provider: 'google',
      project_id: 'p',
      state: 's',
      mode: 'popup',
      redirect_url: 'http://app',
      opener_origin: 'http://app',
    });
  });

  it('trusts the server origin and localhost 3000/3001 only', () => {
    expect(trustedOrigins('https://fa.example/base')).toEqual([
      'https://fa.example',
      'http://localhost:3000',
      'http://localhost:3001',
    ]);
  });
});
