// The rule for new passwords (extensions section 5): at least 8 characters and not one of the
// most common passwords. Stored passwords (the seeded `1234` included) are never re-checked.
import { charCount } from '../../core/http/forms.ts';

export const MIN_PASSWORD_LENGTH = 8;
/** scrypt first runs the password through PBKDF2; a bound keeps a megabyte "password" from costing anything. */
export const MAX_PASSWORD_LENGTH = 200;

/**
 * Passwords of 8 characters or more that lead the published lists of leaked passwords
 * (shorter ones are refused by length anyway). Compared case-insensitively.
 */
const COMMON = new Set(`
12345678 123456789 1234567890 12345678910 0123456789 87654321 11111111 00000000 88888888 12341234
11223344 12121212 123123123 147258369 123456789a 1q2w3e4r 1q2w3e4r5t 1qaz2wsx 1qazxsw2 zaq12wsx
password password1 password12 password123 password! passw0rd p@ssw0rd p@ssword pa$$word passwort
motdepasse contraseña contrasena iloveyou iloveyou1 iloveyou2 princess1 sunshine1 football
football1 baseball basketball superman batman123 spiderman starwars pokemon1 computer internet
whatever trustno1 letmein1 letmein123 welcome1 welcome123 welcome! qwertyui qwertyuiop qwerty123
qwerty12 qwerty1234 asdfghjk asdfghjkl asdf1234 zxcvbnm1 zxcvbnm123 abcd1234 abc12345 abcdefgh
aaaaaaaa 1234qwer qwer1234 q1w2e3r4 q1w2e3r4t5 a1b2c3d4 1a2b3c4d changeme changeme1 administrator
admin123 admin1234 root1234 master12 mustang1 michael1 jennifer charlie1 shadow12 monkey12 dragon12
liverpool chelsea1 arsenal1 jordan23 michelle jessica1 samsung1 secret123 default1 freedom1
sunshine iloveu12 lovely12 loveyou1 babygirl1 butterfly cheese123 chocolate hello123 hello1234
hellokitty test1234 testtest testing1 guest123 user1234 login123 access14 security 
`.split(/\s+/).filter(Boolean));

export function passwordProblems(password: string): string[] {
  const length = charCount(password);
  if (length < MIN_PASSWORD_LENGTH) return [`Password must have at least ${MIN_PASSWORD_LENGTH} characters.`];
  if (length > MAX_PASSWORD_LENGTH) return [`Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters.`];
  if (COMMON.has(password.toLowerCase())) return ['This password is one of the most common ones; choose another.'];
  return [];
}
