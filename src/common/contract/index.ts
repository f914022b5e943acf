/** The one contract of the HTTP API: schemas, error codes and the route table (decisions 0080-0081). */
export * from './errors.js';
export * from './routes.js';
export * from './schemas.js';
export { LIMITS } from '../limits.js';
export { GOAL_LIMITS } from '../goal.js';
