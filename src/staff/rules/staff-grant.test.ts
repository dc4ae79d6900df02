import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ROLE_SCOPES } from '../../operator-access/roles.ts';
import { grantRefusal, seesAccount } from './staff-grant.ts';

const manager = { scopes: ROLE_SCOPES.manager, hotelIds: ['harbour-view'], role: 'manager' };

test('a manager gives roles below owner at their own hotels only', () => {
  assert.equal(grantRefusal(manager, 'front_desk', ['harbour-view']), null);
  assert.match(grantRefusal(manager, 'owner', ['harbour-view']) ?? '', /beyond your own/);
  assert.match(grantRefusal(manager, 'front_desk', ['other']) ?? '', /hotels beyond/);
  assert.match(grantRefusal(manager, 'front_desk', null) ?? '', /hotels beyond/);
});

test('an account is seen when its hotels lie within the caller’s', () => {
  assert.equal(seesAccount(manager, { hotelIds: ['harbour-view'] }), true);
  assert.equal(seesAccount(manager, { hotelIds: null }), false);
});
