import type { CreateTableBuilder } from 'kysely';

/**
 * Every difference between SQLite and PostgreSQL that the code cares about lives here, so stores and
 * migrations never branch on the engine themselves.
 */
export type DialectName = 'sqlite' | 'postgres';

/** Adds an auto-incrementing integer primary key named `id`. */
export function addIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: DialectName,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** Column type for Unix-millisecond timestamps: SQLite's integer is 64-bit, PostgreSQL needs bigint. */
export function timestampType(dialect: DialectName): 'integer' | 'bigint' {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}

/** Column type for floating-point numbers. */
export function floatType(dialect: DialectName): 'real' | 'double precision' {
  return dialect === 'postgres' ? 'double precision' : 'real';
}

/** True when `error` is a unique-constraint violation from either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
