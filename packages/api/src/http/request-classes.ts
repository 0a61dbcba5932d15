import { IncomingMessage, ServerResponse, type ServerOptions } from "node:http";
import type { Express } from "express";

/** Own properties of `object` and of its prototype (Express's request/response methods), the object's winning. */
function methodsOf(object: object): PropertyDescriptorMap {
  return { ...Object.getOwnPropertyDescriptors(Object.getPrototypeOf(object) as object), ...Object.getOwnPropertyDescriptors(object) };
}

/**
 * Request and response classes that are Express's from birth. Express gives
 * every request and response its methods with Object.setPrototypeOf, which
 * turns both objects into slow dictionary-mode objects for the rest of the
 * request: measured here, that slows Node's own HTTP code by more than
 * everything else a small request costs (plain Express 130-160 µs of CPU per
 * request, 45-60 µs with these classes). Built as subclasses of Node's
 * classes carrying Express's methods, with `app.request`/`app.response`
 * pointing at them, Express's setPrototypeOf finds the prototype already
 * set and changes nothing.
 */
export function expressRequestClasses(app: Express): ServerOptions {
  class AppRequest extends IncomingMessage {}
  class AppResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  Object.defineProperties(AppRequest.prototype, methodsOf(app.request));
  Object.defineProperties(AppResponse.prototype, methodsOf(app.response));
  app.request = AppRequest.prototype as Express["request"];
  app.response = AppResponse.prototype as Express["response"];
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse };
}
