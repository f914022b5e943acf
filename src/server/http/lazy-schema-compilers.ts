import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/*
 * Fastify compiles every route's request validators (Ajv) and response serializers (fast-json-stringify) while the
 * app is built: about a third of the server's start time (issue 7, decision 0059). These factories are Fastify's
 * own, wrapped so that each route's schema is compiled on the route's first use instead. A request then pays a few
 * milliseconds once per route and status; the answers are the same. Because an invalid schema is now reported on
 * first use rather than at start, the contract tests compile every schema (test/server/contract).
 */

/**
 * Types are checked, never coerced: "5" is not a number (spec: no type coercion). Our schemas are checked by the
 * tests; skipping Ajv's meta-schema check of each one saves start time.
 */
export const AJV_OPTIONS = {
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  allErrors: false,
  validateSchema: false,
} as const;

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type ValidatorCompiler = (route: unknown) => Validate;
type Serialize = (data: unknown) => string;
type SerializerCompiler = (route: unknown) => Serialize;

const buildAjvValidators = AjvCompiler() as unknown as (
  externalSchemas: unknown,
  options: unknown,
) => ValidatorCompiler;
const buildJsonSerializers = SerializerSelector() as unknown as (
  externalSchemas: unknown,
  options: unknown,
) => SerializerCompiler;

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** The `schemaController.compilersFactory` option of Fastify (its types want Ajv's own function type). */
export const lazySchemaCompilers = {
  buildValidator(externalSchemas: unknown, options: unknown): ValidatorCompiler {
    const compile = buildAjvValidators(externalSchemas, options);
    return (route) => {
      let validate: Validate | undefined;
      // Fastify reads a failed validation's `errors` from the function it was given, as Ajv's functions carry them.
      const lazyValidate: Validate = (data) => {
        validate ??= compile(route);
        const valid = validate(data);
        lazyValidate.errors = validate.errors;
        return valid;
      };
      return lazyValidate;
    };
  },
  buildSerializer(externalSchemas: unknown, options: unknown): SerializerCompiler {
    const compile = buildJsonSerializers(externalSchemas, options);
    return (route) => {
      let serialize: Serialize | undefined;
      return (data) => (serialize ??= compile(route))(data);
    };
  },
} as unknown as CompilersFactory;
