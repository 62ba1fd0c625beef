// Email verification in the OpenAPI document: asking for a link as the signed-in user, and the
// public confirmation with the link's token.
import { jsonResponse, personOperation } from '../../http/openapi/common.ts';
import { emailVerificationSentSchema, emailVerifiedSchema } from './presenter.ts';
import { emailVerificationConfirmSchema } from './schemas.ts';

export const emailVerificationPaths = (tag: string) => ({
  '/users/me/email-verification': {
    post: personOperation({
      operationId: 'requestEmailVerification',
      summary: 'Mail me a link that verifies my email',
      description:
        'Mails a single-use link (24 hours) to the user’s address; a new request replaces the link before. 409 when ' +
        'the email is verified already; counts against the sign-in limits of the email and the address (429); 501 ' +
        'when the service sends no mail (SMTP_URL); 503 when the mail server refused the message.',
      tag,
      responses: { '202': jsonResponse(emailVerificationSentSchema, 'The link is mailed.') },
      problems: [409, 429, 501, 503],
    }),
  },
  '/email-verification/confirm': {
    post: personOperation({
      operationId: 'confirmEmailVerification',
      summary: 'Verify an email with a mailed link',
      description:
        'Public: the link is the proof. Marks the address the link was mailed to verified. 401 for an unknown, used ' +
        'or expired link, or one mailed to an address the user no longer has.',
      tag,
      anonymous: true,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: emailVerificationConfirmSchema.meta({
              id: 'EmailVerificationConfirm',
              example: { token: 'qrverify_…' },
            }),
          },
        },
      },
      responses: { '200': jsonResponse(emailVerifiedSchema, 'The address is verified.') },
      problems: [401, 422],
    }),
  },
});
