import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AppContext, requestContext } from '../context.ts';
import { problemResponses } from '../infra/http/problem-schema.ts';
import { writeSchema } from '../infra/http/write-schema.ts';
import { OperatorHeaders, operatorOperation } from '../operator-access/operator.docs.ts';
import { operatorOf } from '../operator-access/operator-auth.ts';
import { inviteStaff } from './commands/invite-staff.ts';
import { listStaff } from './commands/list-staff.ts';
import { modifyStaff } from './commands/modify-staff.ts';
import { readStaff } from './commands/read-staff.ts';
import { InviteStaffBody, ModifyStaffBody, StaffList, StaffParams, StaffSchema } from './staff.schemas.ts';

const AUTH_PROBLEMS = ['unauthorized', 'forbidden', 'rate_limited'] as const;
const SCOPE = 'staff:write' as const;

/** `/operator/staff` (API.md 12): invite, list, read and change staff accounts. */
export const staffRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/staff',
    {
      config: { operatorScope: SCOPE },
      schema: writeSchema({
        operationId: 'inviteStaff',
        summary: 'Invite a person',
        ...operatorOperation(
          SCOPE,
          [
            'Creates the account `invited` and queues the `staff_invitation` e-mail with a one-time link',
            '`PUBLIC_BASE_URL/desk/welcome#<token>` (72 h). Nobody gives a role or hotel beyond their own',
            '(`403`; `owner` only by an owner or a key). An e-mail that already has an account, in any case,',
            'or an unknown hotel is `400`.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        body: InviteStaffBody,
        response: { 201: StaffSchema },
        problems: ['validation_error', ...AUTH_PROBLEMS],
      }),
    },
    async (request, reply) => {
      const { account } = await inviteStaff(requestContext(ctx, request), operatorOf(request), request.body);
      reply.code(201);
      return account;
    },
  );

  app.get(
    '/staff',
    {
      config: { operatorScope: SCOPE },
      schema: {
        operationId: 'listStaff',
        summary: 'List staff accounts',
        ...operatorOperation(SCOPE, 'The accounts whose hotels all lie within the caller’s, oldest first.'),
        headers: OperatorHeaders,
        response: { 200: StaffList, ...problemResponses(...AUTH_PROBLEMS) },
      },
    },
    async (request) => ({ data: await listStaff(ctx, operatorOf(request)) }),
  );

  app.get(
    '/staff/:id',
    {
      config: { operatorScope: SCOPE },
      schema: {
        operationId: 'readStaff',
        summary: 'Read a staff account',
        ...operatorOperation(SCOPE, 'One account; one with hotels beyond the caller’s is `404`.'),
        headers: OperatorHeaders,
        params: StaffParams,
        response: { 200: StaffSchema, ...problemResponses(...AUTH_PROBLEMS, 'not_found') },
      },
    },
    async (request) => readStaff(ctx, operatorOf(request), request.params.id),
  );

  app.patch(
    '/staff/:id',
    {
      config: { operatorScope: SCOPE },
      schema: writeSchema({
        operationId: 'modifyStaff',
        summary: 'Change a staff account',
        ...operatorOperation(
          SCOPE,
          [
            'Name, role, hotels or status. The caller changes only accounts whose role and hotels it could',
            'give, to a role and hotels it could give (`403`), and never its own role, hotels or status.',
            '`status: "disabled"` ends every session of the person at once, on every process.',
          ].join(' '),
        ),
        headers: OperatorHeaders,
        params: StaffParams,
        body: ModifyStaffBody,
        response: { 200: StaffSchema },
        problems: ['validation_error', ...AUTH_PROBLEMS, 'not_found'],
      }),
    },
    async (request) =>
      modifyStaff(requestContext(ctx, request), operatorOf(request), request.params.id, request.body),
  );
};
