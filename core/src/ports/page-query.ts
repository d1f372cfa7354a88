/** Keyset paging: rows ordered by (created_at, id); `after` is the last row of the previous page. */
export interface PageQuery {
  limit: number;
  after: PageCursor | null;
}

export interface PageCursor {
  created_at: string;
  id: string;
}
