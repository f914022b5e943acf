/**
 * Request body limits (docs/decisions/0062-body-limits.md). Every route takes at most SMALL_BODY_LIMIT_BYTES,
 * which bounds the parsing work an anonymous request can cause (1 MiB of nested `[[[…]]]` costs ~280 ms);
 * only the goal routes whose body may carry a whole `sets` object opt into GOAL_BODY_LIMIT_BYTES.
 */
export const SMALL_BODY_LIMIT_BYTES = 16 * 1024;
export const GOAL_BODY_LIMIT_BYTES = 1024 * 1024;
