import type { ModuleContext } from '../../core/modules.ts';

/** The two accounts of decisions section 5, each with its profile. */
export const SEED_USERS = [
  { email: 'user1@example.com', password: '1234', name: 'John', surname: 'Doe' },
  { email: 'user2@example.com', password: '1234', name: 'Jane', surname: 'Doe' },
] as const;

export async function seedUsers(ctx: ModuleContext): Promise<void> {
  for (const user of SEED_USERS) {
    const created = await ctx.services.auth.createWithProfile(user);
    await ctx.services.profile.updateProfile(
      (await ctx.services.profile.getByUserId(created.id))!.id,
      { affiliation: 'Some University' },
    );
  }
}
