/* SPDX-License-Identifier: Apache-2.0 */
/* DuckDB as a yardstick: runs one SQL query through DuckDB's C API (libduckdb.so, as DuckDB's npm
   package @duckdb/node-bindings-linux-x64 ships it) and prints the rows tab-separated, then the query's
   wall seconds on stderr, "duckdb_query: N rows in S s". Only the C API's public functions are declared
   here, so it builds with the library alone (no header):
     cc -O2 scripts/duckdb_query.c -o duckdb_query -LDIR -lduckdb -Wl,-rpath,DIR
     duckdb_query THREADS SQL [MAX_ROWS_PRINTED]                                                       */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef uint64_t idx_t;
typedef struct duckdb_handle { void* internal; } * duckdb_database;
typedef struct duckdb_connection_handle { void* internal; } * duckdb_connection;
/* The library's result struct is 48 bytes in DuckDB 1.x; a larger buffer holds it whatever its size. */
typedef struct { _Alignas(16) unsigned char bytes[256]; } duckdb_result;

extern int duckdb_open(const char* path, duckdb_database* out);
extern int duckdb_connect(duckdb_database db, duckdb_connection* out);
extern int duckdb_query(duckdb_connection connection, const char* sql, duckdb_result* out);
extern const char* duckdb_result_error(duckdb_result* result);
extern idx_t duckdb_row_count(duckdb_result* result);
extern idx_t duckdb_column_count(duckdb_result* result);
extern char* duckdb_value_varchar(duckdb_result* result, idx_t column, idx_t row);
extern void duckdb_free(void* pointer);
extern void duckdb_destroy_result(duckdb_result* result);

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int run(duckdb_connection connection, const char* sql, duckdb_result* result) {
  if (duckdb_query(connection, sql, result) == 0) return 1;
  fprintf(stderr, "duckdb_query: %s\n", duckdb_result_error(result));
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: duckdb_query THREADS SQL [MAX_ROWS_PRINTED]\n");
    return 2;
  }
  duckdb_database db;
  duckdb_connection connection;
  duckdb_result result;
  if (duckdb_open(NULL, &db) != 0 || duckdb_connect(db, &connection) != 0) {
    fprintf(stderr, "duckdb_query: cannot open an in-memory database\n");
    return 1;
  }
  char threads[64];
  snprintf(threads, sizeof threads, "SET threads = %d", atoi(argv[1]));
  if (!run(connection, threads, &result)) return 1;
  duckdb_destroy_result(&result);
  double const start = seconds_now();
  if (!run(connection, argv[2], &result)) return 1;
  double const seconds = seconds_now() - start;
  idx_t const rows = duckdb_row_count(&result);
  idx_t const columns = duckdb_column_count(&result);
  idx_t const printed = argc > 3 ? (idx_t)strtoull(argv[3], NULL, 10) : rows;
  for (idx_t r = 0; r < rows && r < printed; ++r) {
    for (idx_t c = 0; c < columns; ++c) {
      char* value = duckdb_value_varchar(&result, c, r);
      printf("%s%s", c > 0 ? "\t" : "", value != NULL ? value : "NULL");
      duckdb_free(value);
    }
    putchar('\n');
  }
  fprintf(stderr, "duckdb_query: %llu rows in %.3f s\n", (unsigned long long)rows, seconds);
  duckdb_destroy_result(&result);
  return 0;
}
