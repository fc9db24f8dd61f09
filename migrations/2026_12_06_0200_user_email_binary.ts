// `user.email` compared byte for byte on MariaDB too. Its default collation (utf8mb4_unicode_ci)
// folds accents and widths, so `jose@example.com` was "in use" once `josé@example.com` existed and
// its login found that other account; SQLite and PostgreSQL keep them apart. Addresses are stored
// NFC-normalised and lower-cased (email-address.ts), so a binary comparison is the one they need.
import { MysqlAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof MysqlAdapter)) return;
  await sql`alter table ${sql.table('user')} modify ${sql.ref('email')} varchar(256) character set utf8mb4 collate utf8mb4_bin not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof MysqlAdapter)) return;
  await sql`alter table ${sql.table('user')} modify ${sql.ref('email')} varchar(256) character set utf8mb4 collate utf8mb4_unicode_ci not null`.execute(db);
}
