import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { VERSION } from "@mw/platform";
import { z } from "zod";

extendZodWithOpenApi(z);

export const errorBody = z
  .object({
    code: z.string(),
    message: z.string(),
    data: z.object({ status: z.number().int() }).loose(),
  })
  .openapi("Error");

/** The image API's error body (spec 1, section 7). */
export const imageErrorBody = z.object({ error: z.string() }).openapi("ImageError");

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "basicAuth", {
    type: "http",
    scheme: "basic",
    description: "User login and an application password (`pnpm cli user:create`).",
  });
  registry.registerComponent("securitySchemes", "sessionNonce", {
    type: "apiKey",
    in: "header",
    name: "X-Nonce",
    description: "Session cookie from POST /auth/login plus the nonce it returned.",
  });
  registry.registerComponent("securitySchemes", "cronBearer", {
    type: "http",
    scheme: "bearer",
    description: "CRON_TOKEN, required by the scheduled endpoints when the deployment sets it.",
  });
  registry.registerComponent("securitySchemes", "siteBearer", {
    type: "http",
    scheme: "bearer",
    description: "A site API key (POST /sites/{id}/api-keys), for POST /external/orders.",
  });
  registry.registerComponent("securitySchemes", "siteApiKey", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "The same site API key, as a header.",
  });
  registry.registerComponent("securitySchemes", "imageApiKey", {
    type: "apiKey",
    in: "query",
    name: "api_key",
    description: "An image-API key (`pnpm cli image-key:create`), for /api/image and /api/image-random.",
  });
  registry.registerComponent("securitySchemes", "aiSecurityKey", {
    type: "apiKey",
    in: "header",
    name: "ai-security-key",
    description: "The shared key of the AI routes: the ai_security_key option (`pnpm cli options:set ai_security_key ...`).",
  });
  registry.register("Error", errorBody);
  registry.register("ImageError", imageErrorBody);
  return registry;
}

export function openApiDocument(registry: OpenAPIRegistry, serverUrl?: string) {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Order & operations platform",
      version: VERSION,
      description: "Commerce middleware and management platform REST interfaces. Errors: `{code, message, data: {status}}`.",
    },
    servers: serverUrl ? [{ url: serverUrl }] : undefined,
  });
}
