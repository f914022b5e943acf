import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/*
 * Fastify compiles every route's request validators (Ajv) and response serializers (fast-json-stringify) while the
 * app is built: about a third of the server's start time (issue 7, decision 0059). These factories are Fastify's
 * own, wrapped so that each route's schema is compiled on the route's first use instead. A request then pays a few
 * milliseconds once per route and status; the answers are the same. Because an invalid schema is now reported on
 * first use rather than at start, the contract tests compile every schema (test/server/contract).
 *
 * The compilers themselves (Ajv, fast-json-stringify: a third of the server's code) are loaded in the background once
 * the app is built, and every request to a route with a schema waits for them in its first hook
 * (`installSchemaCompilerGate`), so no validator or serializer is ever asked for before they are there.
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
type CompilerFactory<Compiler> = (externalSchemas: unknown, options: unknown) => Compiler;

interface Compilers {
  buildAjvValidators: CompilerFactory<ValidatorCompiler>;
  buildJsonSerializers: CompilerFactory<SerializerCompiler>;
}

let loaded: Compilers | undefined;
let loading: Promise<Compilers> | undefined;

/** Loads Fastify's compilers once per process; later calls get the same promise. */
export function loadSchemaCompilers(): Promise<Compilers> {
  loading ??= Promise.all([import('@fastify/ajv-compiler'), import('@fastify/fast-json-stringify-compiler')]).then(
    // Both are CommonJS: their exports are the namespace's default (the bundle does not see named exports).
    ([ajv, json]) =>
      (loaded = {
        buildAjvValidators: ajv.default.AjvCompiler() as unknown as Compilers['buildAjvValidators'],
        buildJsonSerializers: json.default.SerializerSelector() as unknown as Compilers['buildJsonSerializers'],
      }),
  );
  return loading;
}

/** Whether the compilers are there (a test checks that its first requests arrive before). */
export function schemaCompilersLoaded(): boolean {
  return loaded !== undefined;
}

function compilers(): Compilers {
  if (!loaded) throw new Error('a schema was compiled before the schema compilers were loaded');
  return loaded;
}

/**
 * Starts loading the compilers and makes every request to a route with a schema wait for them before anything else
 * runs. Installed first, so its hook runs before any hook that may answer (and so serialize) an error. Costs one
 * check per request once loaded.
 */
export function installSchemaCompilerGate(app: FastifyInstance): void {
  void loadSchemaCompilers();
  // A callback hook, not an async one: once the compilers are loaded it costs no promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    // A route without a schema never compiles one (health checks, the web app's files), so it need not wait: the
    // server answers /healthz as soon as it listens.
    if (loaded || !request.routeOptions.schema) return done();
    loadSchemaCompilers().then(() => done(), done);
  });
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** The `schemaController.compilersFactory` option of Fastify (its types want Ajv's own function type). */
export const lazySchemaCompilers = {
  buildValidator(externalSchemas: unknown, options: unknown): ValidatorCompiler {
    let compile: ValidatorCompiler | undefined;
    return (route) => {
      let validate: Validate | undefined;
      // Fastify reads a failed validation's `errors` from the function it was given, as Ajv's functions carry them.
      const lazyValidate: Validate = (data) => {
        compile ??= compilers().buildAjvValidators(externalSchemas, options);
        validate ??= compile(route);
        const valid = validate(data);
        lazyValidate.errors = validate.errors;
        return valid;
      };
      return lazyValidate;
    };
  },
  buildSerializer(externalSchemas: unknown, options: unknown): SerializerCompiler {
    let compile: SerializerCompiler | undefined;
    return (route) => {
      let serialize: Serialize | undefined;
      return (data) => {
        compile ??= compilers().buildJsonSerializers(externalSchemas, options);
        serialize ??= compile(route);
        return serialize(data);
      };
    };
  },
} as unknown as CompilersFactory;
