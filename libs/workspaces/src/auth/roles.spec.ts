import { membershipChangeRefusal, roleAllows } from './roles';

describe('roles: members read; owners and admins change; the operator creates workspaces', () => {
  it.each([
    ['member', 'read', true],
    ['member', 'change', false],
    ['member', 'create_workspace', false],
    ['admin', 'read', true],
    ['admin', 'change', true],
    ['admin', 'create_workspace', false],
    ['owner', 'read', true],
    ['owner', 'change', true],
    ['owner', 'create_workspace', false],
    ['operator', 'create_workspace', true],
    ['operator', 'change', false],
    ['operator', 'read', false],
  ] as const)('%s may %s: %s', (caller, permission, allowed) => {
    expect(roleAllows(caller, permission)).toBe(allowed);
  });
});

describe('membership changes', () => {
  const member = { role: 'member' as const };
  const owner = { role: 'owner' as const };

  it('a member changes nobody', () => {
    expect(membershipChangeRefusal('member', member, { kind: 'remove' }, 2)?.code).toBe('forbidden');
  });

  it('an admin removes and promotes members up to admin', () => {
    expect(membershipChangeRefusal('admin', member, { kind: 'remove' }, 1)).toBeNull();
    expect(membershipChangeRefusal('admin', member, { kind: 'role', to: 'admin' }, 1)).toBeNull();
  });

  it('only an owner makes or unmakes owners', () => {
    expect(membershipChangeRefusal('admin', member, { kind: 'role', to: 'owner' }, 1)?.code).toBe('forbidden');
    expect(membershipChangeRefusal('admin', owner, { kind: 'remove' }, 2)?.code).toBe('forbidden');
    expect(membershipChangeRefusal('owner', member, { kind: 'role', to: 'owner' }, 1)).toBeNull();
    expect(membershipChangeRefusal('owner', owner, { kind: 'role', to: 'admin' }, 2)).toBeNull();
  });

  it('the last owner can be neither removed nor demoted, not even by themselves', () => {
    const self = { role: 'owner' as const };
    expect(membershipChangeRefusal('owner', self, { kind: 'remove' }, 1)?.code).toBe('last_owner');
    expect(membershipChangeRefusal('owner', self, { kind: 'role', to: 'member' }, 1)?.code).toBe('last_owner');
    expect(membershipChangeRefusal('owner', self, { kind: 'role', to: 'owner' }, 1)).toBeNull();
    expect(membershipChangeRefusal('owner', self, { kind: 'remove' }, 2)).toBeNull();
  });
});
