import type { UserDto } from '@contract/accounts';

/** The signed-in member of the client's tests. */
export const ADA: UserDto = {
  id: '0b7d3c58-6a0e-4c8e-9f55-3f4f0f4b8a11',
  email: 'ada@northwind.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: null,
  companyId: 1,
  role: 'member',
};
