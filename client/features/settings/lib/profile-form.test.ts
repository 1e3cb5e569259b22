import { describe, expect, it } from 'vitest';
import type { UserDto } from '@contract/accounts';
import { ProfileFormSchema, profileFormValues, profileUpdateBody } from './profile-form';

const user: UserDto = {
  id: '5f0e4c1e-3b7a-4a35-9b8e-7a1d2f7c9e01',
  email: 'ada@northwind.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: null,
  companyId: 3,
  role: 'member',
};

describe('profile form', () => {
  it('starts from the user, with the company as the dropdown value and no phone as ""', () => {
    expect(profileFormValues(user)).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '',
      companyId: '3',
    });
    expect(profileFormValues({ ...user, companyId: null, phone: '+44 1' }).companyId).toBe('');
  });

  it('sends trimmed names, the phone or null, the company as a number and the current e-mail', () => {
    const parsed = ProfileFormSchema.parse({
      firstName: '  Grace ',
      lastName: 'Hopper ',
      phone: ' ',
      companyId: '2',
    });
    expect(profileUpdateBody(parsed, user)).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      phone: null,
      companyId: 2,
      email: 'ada@northwind.com',
    });
    const none = ProfileFormSchema.parse({ ...profileFormValues(user), companyId: '' });
    expect(profileUpdateBody(none, user).companyId).toBeNull();
  });

  it('rejects empty names and a phone with letters, with the contract messages', () => {
    const result = ProfileFormSchema.safeParse({
      firstName: ' ',
      lastName: 'x',
      phone: 'call me',
      companyId: '',
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(
      (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]),
    );
    expect(messages.firstName).toBe('String must contain at least 1 character(s)');
    expect(messages.phone).toMatch(/Phone number may only contain/);
  });
});
