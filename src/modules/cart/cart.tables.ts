// The cart module's table (migration 2026_11_27_0100): the files a signed-in user collected.
export interface CartItemTable {
  user_id: number;
  file_id: number;
  added_at: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    cart_item: CartItemTable;
  }
}
