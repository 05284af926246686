/**
 * What untrusted SQL may reference, checked on DuckDB's own parse tree (`json_serialize_sql`)
 * inside the sandbox process before the statement is planned. The operating-system limits and
 * the read-only snapshot are the real walls; this keeps a statement from even reaching the
 * engine's system functions (settings, logging, checkpoints, files, catalogs).
 */
import { ONE_STATEMENT } from '../sql-guard.js';

/** Tables of the snapshot; the statement's own CTE names are allowed too, where they are in scope. */
const TABLES = new Set(['observations', 'sources']);

const TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest']);

/** Pure functions on values: operators, arithmetic, text, dates, lists, structs, JSON values. */
const SCALAR_FUNCTIONS = new Set(
  `
  + - * / // % ** ^ & | << >> ~ ! || ~~ !~~ ~~* !~~* ~~~ ^@ @> <@ ->> <-> <=> @ && !__postfix
  add subtract multiply divide mod xor
  abs acos acosh asin asinh atan atan2 atanh cbrt ceil ceiling cos cosh cot degrees even exp factorial
  floor gamma gcd greatest greatest_common_divisor isfinite isinf isnan lcm least least_common_multiple
  lgamma ln log log10 log2 nextafter pi pow power radians round round_even roundbankers sign signbit
  sin sinh sqrt tan tanh trunc fdiv fmod random
  ascii bar bit_length chr concat concat_ws contains damerau_levenshtein editdist3 ends_with format
  formatReadableDecimalSize formatReadableSize format_bytes hamming ilike_escape instr jaccard
  jaro_similarity jaro_winkler_similarity lcase left left_grapheme len length length_grapheme
  levenshtein like_escape lower lpad ltrim md5 md5_number mismatches nfc_normalize not_ilike_escape
  not_like_escape octet_length ord position prefix printf regexp_escape regexp_extract
  regexp_extract_all regexp_full_match regexp_matches regexp_replace regexp_split_to_array repeat
  replace reverse right right_grapheme rpad rtrim sha1 sha256 split split_part starts_with str_split
  str_split_regex string_split string_split_regex string_to_array strip_accents strlen strpos substr
  substring substring_grapheme suffix translate trim ucase unicode upper url_decode url_encode hash
  base64 to_base64 from_base64 hex unhex bin unbin to_hex from_hex to_binary from_binary encode decode
  to_base bit_count get_bit set_bit bit_position bitstring
  age century date_diff date_part date_sub date_trunc datediff datepart datesub datetrunc date_add day
  dayname dayofmonth dayofweek dayofyear days_in_month decade epoch epoch_ms epoch_ns epoch_us era
  hour isodow isoyear julian last_day make_date make_time make_timestamp make_timestamp_ms
  make_timestamp_ns make_timestamptz microsecond millennium millisecond minute month monthname
  nanosecond normalized_interval quarter second strftime strptime try_strptime time_bucket timezone
  timezone_hour timezone_minute to_centuries to_days to_decades to_hours to_microseconds to_millennia
  to_milliseconds to_minutes to_months to_quarters to_seconds to_timestamp to_weeks to_years week
  weekday weekofyear year yearweek current_date today now get_current_time get_current_timestamp
  current_localtime current_localtimestamp transaction_timestamp ago
  array_aggr array_aggregate array_apply array_append array_cat array_concat array_contains
  array_cosine_distance array_cosine_similarity array_cross_product array_distance array_distinct
  array_dot_product array_extract array_filter array_grade_up array_has array_has_all array_has_any
  array_indexof array_inner_product array_intersect array_length array_negative_dot_product
  array_negative_inner_product array_pop_back array_pop_front array_position array_prepend
  array_push_back array_push_front array_reduce array_resize array_reverse array_reverse_sort
  array_select array_slice array_sort array_to_string array_transform array_unique array_value
  array_where array_zip cardinality element_at flatten generate_series range unnest
  generate_subscripts grade_up list_aggr list_aggregate list_any_value list_append list_apply
  list_approx_count_distinct list_avg list_bit_and list_bit_or list_bit_xor list_bool_and
  list_bool_or list_cat list_concat list_contains list_cosine_distance list_cosine_similarity
  list_count list_distance list_distinct list_dot_product list_element list_entropy list_extract
  list_filter list_first list_grade_up list_has list_has_all list_has_any list_histogram
  list_indexof list_inner_product list_intersect list_kurtosis list_kurtosis_pop list_last list_mad
  list_max list_median list_min list_mode list_negative_dot_product list_negative_inner_product
  list_pack list_position list_prepend list_product list_reduce list_resize list_reverse
  list_reverse_sort list_select list_sem list_skewness list_slice list_sort list_stddev_pop
  list_stddev_samp list_string_agg list_sum list_transform list_unique list_value list_var_pop
  list_var_samp list_where list_zip apply filter reduce
  map map_concat map_contains map_contains_entry map_contains_value map_entries map_extract
  map_extract_value map_from_entries map_keys map_values struct_concat struct_contains
  struct_extract struct_extract_at struct_has struct_indexof struct_insert struct_keys struct_pack
  struct_position struct_update struct_values row union_extract union_tag union_value
  array_to_json json json_array json_array_length json_contains json_exists json_extract
  json_extract_path json_extract_path_text json_extract_string json_keys json_merge_patch
  json_object json_pretty json_quote json_structure json_transform json_transform_strict json_type
  json_valid json_value row_to_json to_json from_json from_json_strict
  enum_code enum_first enum_last enum_range enum_range_boundary
  coalesce ifnull nullif typeof alias error uuid uuidv4 uuidv7 gen_random_uuid uuid_extract_timestamp
  uuid_extract_version equi_width_bins
  `
    .split(/\s+/)
    .filter(Boolean),
);

/** Aggregate and window functions. */
const AGGREGATE_FUNCTIONS = new Set(
  `
  any_value approx_count_distinct approx_quantile approx_top_k arbitrary arg_max arg_max_null
  arg_max_nulls_last arg_min arg_min_null arg_min_nulls_last argmax argmin array_agg avg bit_and
  bit_or bit_xor bitstring_agg bool_and bool_or corr count count_if count_star countif covar_pop
  covar_samp cume_dist dense_rank entropy favg fill first first_value fsum geomean geometric_mean
  group_concat histogram histogram_exact json_group_array json_group_object json_group_structure
  kahan_sum kurtosis kurtosis_pop lag last last_value lead list listagg mad max max_by mean median
  min min_by mode nth_value ntile percent_rank product quantile quantile_cont quantile_disc rank
  rank_dense regr_avgx regr_avgy regr_count regr_intercept regr_r2 regr_slope regr_sxx regr_sxy
  regr_syy reservoir_quantile row_number sem skewness stddev stddev_pop stddev_samp string_agg sum
  sum_no_overflow sumkahan var_pop var_samp variance wavg weighted_avg
  `
    .split(/\s+/)
    .filter(Boolean),
);

const EXPRESSION_CLASSES = new Set([
  'BETWEEN',
  'CASE',
  'CAST',
  'COLLATE',
  'COLUMN_REF',
  'COMPARISON',
  'CONJUNCTION',
  'CONSTANT',
  'FUNCTION',
  'LAMBDA',
  'LAMBDA_REF',
  'OPERATOR',
  'POSITIONAL_REFERENCE',
  'STAR',
  'SUBQUERY',
  'WINDOW',
]);

const TABLE_REF_TYPES = new Set([
  'BASE_TABLE',
  'EMPTY',
  'EXPRESSION_LIST',
  'JOIN',
  'PIVOT',
  'SUBQUERY',
  'TABLE_FUNCTION',
]);

const QUERY_NODE_TYPES = new Set([
  'SELECT_NODE',
  'SET_OPERATION_NODE',
  'RECURSIVE_CTE_NODE',
  'CTE_NODE',
]);

/** Types whose values can be too large to turn into text in bounded time. */
export const REFUSED_TYPES = new Set(['BIGNUM', 'VARINT']);

type Node = Record<string, unknown>;

/**
 * The problems of a serialized statement (the output of `json_serialize_sql`), empty when it
 * may run. Names are compared case-insensitively, as DuckDB resolves them.
 */
export function disallowedReferences(serialized: unknown): string[] {
  const root = serialized as {
    error?: boolean;
    error_type?: string;
    error_message?: string;
    statements?: unknown[];
  };
  if (root.error) return [serializationError(root.error_type, root.error_message)];
  if (!Array.isArray(root.statements) || root.statements.length !== 1) {
    return [`exactly one statement is allowed, found ${root.statements?.length ?? 0}`];
  }
  const problems = new Set<string>();
  visit(root.statements, new Set(), problems);
  return [...problems];
}

/** Why the statement has no parse tree, said as the engine says it when running a statement. */
function serializationError(type: string | undefined, message: string | undefined): string {
  // The serializer takes SELECT statements only: a second statement of another kind ends here.
  if (message?.startsWith('Only SELECT statements can be serialized')) {
    return ONE_STATEMENT;
  }
  if (type === 'parser') return `Parser Error: ${message}`;
  if (type === 'not implemented') {
    return `Not implemented Error: ${message}: DuckDB does not implement this construct`;
  }
  return message ?? 'the statement cannot be parsed';
}

/**
 * The CTE names a query node's own WITH adds to `scope`, each visited in the scope DuckDB binds
 * it in: a CTE sees the CTEs before it in the same WITH and those of the enclosing queries, and
 * itself only when it is recursive. A name outside that scope is the catalog's: inside its own
 * body `WITH duckdb_tables AS (SELECT * FROM duckdb_tables)` reads the system table, and so does
 * a reference outside the subquery whose WITH defined the name.
 */
function withScope(
  node: Node,
  scope: ReadonlySet<string>,
  problems: Set<string>,
): ReadonlySet<string> {
  const map = (node.cte_map as { map?: { key?: unknown; value?: unknown }[] } | undefined)?.map;
  if (!Array.isArray(map) || map.length === 0) return scope;
  const names = new Set(scope);
  for (const entry of map) {
    if (typeof entry.key !== 'string') continue;
    const name = entry.key.toLowerCase();
    const body = (entry.value as { query?: { node?: Node } } | undefined)?.query?.node;
    const recursive = body?.type === 'RECURSIVE_CTE_NODE';
    visit(entry.value, recursive ? new Set([...names, name]) : new Set(names), problems);
    names.add(name);
  }
  return names;
}

function visit(value: unknown, cteNames: ReadonlySet<string>, problems: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item, cteNames, problems);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const node = value as Node;
  if (typeof node.class === 'string') checkExpression(node, problems);
  else if (typeof node.type === 'string' && 'alias' in node && 'sample' in node)
    checkTableRef(node, cteNames, problems);
  else if (typeof node.type === 'string' && 'cte_map' in node && !QUERY_NODE_TYPES.has(node.type))
    problems.add(`${describe(node.type)} is not allowed`);
  const scope = 'cte_map' in node ? withScope(node, cteNames, problems) : cteNames;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'cte_map') continue;
    // A table function's call is checked as a table function, not as a scalar function.
    if (key === 'function' && node.type === 'TABLE_FUNCTION') {
      visit((child as Node | null)?.children, scope, problems);
      continue;
    }
    visit(child, scope, problems);
  }
}

function checkExpression(node: Node, problems: Set<string>): void {
  const kind = node.class as string;
  if (!EXPRESSION_CLASSES.has(kind)) {
    problems.add(`${describe(kind)} expressions are not allowed`);
    return;
  }
  if (kind === 'FUNCTION' || kind === 'WINDOW') {
    const name = String(node.function_name ?? '').toLowerCase();
    if (!resolvesAsUnqualified(node)) {
      problems.add(`function ${qualified(node, name)} is not allowed`);
    } else if (!SCALAR_FUNCTIONS.has(name) && !AGGREGATE_FUNCTIONS.has(name)) {
      problems.add(`function ${name}() is not allowed`);
    }
  }
  if (kind === 'CAST') {
    const target = String((node.cast_type as { id?: unknown } | undefined)?.id ?? '');
    if (REFUSED_TYPES.has(target)) problems.add(`casts to ${target} are not allowed`);
  }
}

function checkTableRef(node: Node, cteNames: ReadonlySet<string>, problems: Set<string>): void {
  const type = node.type as string;
  if (!TABLE_REF_TYPES.has(type)) {
    problems.add(`${describe(type)} is not allowed: read the tables observations and sources`);
    return;
  }
  if (type === 'BASE_TABLE') {
    const name = String(node.table_name ?? '').toLowerCase();
    const schema = String(node.schema_name ?? '').toLowerCase();
    const catalog = String(node.catalog_name ?? '');
    const known = (TABLES.has(name) && (schema === '' || schema === 'main')) || cteNames.has(name);
    if (!known || catalog !== '' || (cteNames.has(name) && schema !== '')) {
      problems.add(
        `table ${qualified(node, name)} is not allowed: the tables are observations and sources`,
      );
    }
    if (node.at_clause) problems.add('AT (time travel) is not allowed');
  }
  if (type === 'TABLE_FUNCTION') {
    const call = node.function as Node | null;
    const name = String(call?.function_name ?? '').toLowerCase();
    if (!TABLE_FUNCTIONS.has(name) || !call || !resolvesAsUnqualified(call)) {
      problems.add(
        `table function ${name}() is not allowed; table functions: ${[...TABLE_FUNCTIONS].join(', ')}`,
      );
    }
  }
}

/**
 * Whether a call finds its function as the unqualified name would: no qualification, or the
 * default schema `main` without a catalog. DuckDB's parser writes `main` into the standard SQL
 * spellings itself (`extract(year FROM t)` is `main.date_part`, and so are `substring(... FROM
 * ... FOR ...)`, `position(... IN ...)`, `trim(BOTH ... FROM ...)`, `AT TIME ZONE`, `[1, 2]` and
 * `{'a': 1}`), so for those the allow list decides. Any catalog (`system.main.f`) or other schema
 * (`pg_catalog.f`) stays refused.
 */
function resolvesAsUnqualified(call: Node): boolean {
  const schema = String(call.schema ?? '').toLowerCase();
  return !call.catalog && (schema === '' || schema === 'main');
}

function qualified(node: Node, name: string): string {
  const parts = [node.catalog_name ?? node.catalog, node.schema_name ?? node.schema, name];
  return parts.filter((part) => typeof part === 'string' && part !== '').join('.');
}

function describe(type: string): string {
  return type.toLowerCase().replaceAll('_', ' ');
}
