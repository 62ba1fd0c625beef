// Single sign-on in the OpenAPI document: a workspace's settings, and the browser's redirects.
import { z } from 'zod';
import { jsonResponse, noContent, pathParams, personOperation } from '../../http/openapi/common.ts';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ssoSettingsSchema } from './sso-presenter.ts';
import { putSsoSchema, ssoStartSchema } from './sso-schemas.ts';

const workspaceParams = pathParams({
  id: { description: 'The workspace’s (account’s) id.', example: 'acct_2bN7xQ4mK9pL1vT5rW8z' },
});
const redirectTo = (description: string) => ({
  description,
  headers: z.object({ Location: z.string().meta({ description: 'Where the browser goes next.' }) }),
});
const landing =
  'Any refusal (no single sign-on for the domain, the provider’s error, a state that does not match, an ' +
  'unverified email, a domain not covered) redirects to `/dashboard/?sso_error=<reason>`, never a problem answer.';

export function ssoPaths(tag: string): ZodOpenApiPathsObject {
  return {
    '/workspaces/{id}/sso': {
      get: personOperation({
        operationId: 'getWorkspaceSso',
        summary: 'Get the workspace’s single sign-on settings',
        description: 'Owners only. The client secret is never answered. 404 when none are set.',
        tag,
        requestParams: { path: workspaceParams },
        responses: { '200': jsonResponse(ssoSettingsSchema, 'The settings.') },
        problems: [404],
      }),
      put: personOperation({
        operationId: 'putWorkspaceSso',
        summary: 'Set the workspace’s single sign-on settings',
        description:
          'Owners only. Replaces the settings whole; the client secret is needed the first time and kept when ' +
          'absent later. An email domain belongs to one workspace’s single sign-on at a time: 409 otherwise.',
        tag,
        requestParams: { path: workspaceParams },
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: putSsoSchema.meta({
                id: 'PutSsoSettings',
                example: {
                  issuer: 'https://login.example.com/realms/staff',
                  client_id: 'qr-service',
                  client_secret: 's3cr3t…',
                  domains: ['example.com'],
                  default_role: 'viewer',
                  enabled: true,
                },
              }),
            },
          },
        },
        responses: { '200': jsonResponse(ssoSettingsSchema, 'The settings as stored.') },
        problems: [404, 409, 422],
      }),
      delete: personOperation({
        operationId: 'deleteWorkspaceSso',
        summary: 'Remove the workspace’s single sign-on',
        description: 'Owners only. Members keep their users; those without a password reset theirs to sign in.',
        tag,
        requestParams: { path: workspaceParams },
        responses: { '204': noContent },
        problems: [404],
      }),
    },
    '/sso/start': {
      get: personOperation({
        operationId: 'startSso',
        summary: 'Sign in through the email domain’s identity provider',
        description:
          'For a browser: redirects to the provider’s authorization endpoint (code flow with PKCE, state and ' +
          `nonce) and sets a short-lived state cookie. ${landing}`,
        tag,
        anonymous: true,
        requestParams: { query: ssoStartSchema },
        responses: { '302': redirectTo('To the identity provider, or to the dashboard’s sign-in page.') },
      }),
    },
    '/sso/callback': {
      get: personOperation({
        operationId: 'finishSso',
        summary: 'The identity provider’s answer',
        description:
          'The redirect URI registered with the provider. Checks the ID token, that the email is verified and of ' +
          'a covered domain, makes the user and membership on a first sign-in (with the default role), sets the ' +
          `session cookie and redirects to the dashboard. No second factor of this service is asked. ${landing}`,
        tag,
        anonymous: true,
        responses: { '302': redirectTo('To the dashboard, signed in or with the reason of the refusal.') },
      }),
    },
  };
}
