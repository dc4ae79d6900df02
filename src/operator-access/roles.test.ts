import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayGrantRole, ROLE_SCOPES, scopesOfRole } from './roles.ts';
import { SCOPES } from './scopes.ts';

test('roles map to the scopes of API.md 12', () => {
  assert.deepEqual(scopesOfRole('owner'), [...SCOPES]);
  assert.ok(!ROLE_SCOPES.manager.includes('keys:write'));
  assert.ok(ROLE_SCOPES.manager.includes('staff:write'));
  assert.deepEqual(scopesOfRole('accountant'), [
    'reservations:read',
    'folios:read',
    'folios:write',
    'audit:read',
  ]);
});

test('nobody grants beyond their own role', () => {
  const manager = { scopes: ROLE_SCOPES.manager, hotelIds: null, role: 'manager' };
  assert.equal(mayGrantRole(manager, 'owner'), false);
  assert.equal(mayGrantRole(manager, 'manager'), true);
  assert.equal(mayGrantRole(manager, 'front_desk'), true);
  const owner = { scopes: ROLE_SCOPES.owner, hotelIds: null, role: 'owner' };
  assert.equal(mayGrantRole(owner, 'owner'), true);
  const key = { scopes: ['staff:write', 'reservations:read'] as const, hotelIds: null };
  assert.equal(mayGrantRole({ ...key, scopes: [...key.scopes] }, 'accountant'), false);
  assert.equal(mayGrantRole({ scopes: [...SCOPES], hotelIds: null }, 'owner'), true);
});
