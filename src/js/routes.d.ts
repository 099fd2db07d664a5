// What each documented route answers, worked out from the method and the
// path at compile time: `handle("POST", "/api/order/create", …)` is an
// Envelope<Order>, `handle("GET", `/api/payment/${id}`)` an
// Envelope<Payment>: on `code === 0` its data is that type, on any other
// code null. A path the types cannot place (a plain `string`, an unknown
// route, a wrong method) is the generic Envelope.
import type { BatchReport, Envelope, HttpResponse, Order, Payment } from "./orderpay.js";

declare const noRoute: unique symbol;
/** No documented route: the generic Envelope. */
type NoRoute = typeof noRoute;

/** The path without its query. */
type PathOf<P extends string> = P extends `${infer Path}?${string}` ? Path : P;

/** One path segment: not empty, no slash. */
type IsSegment<S extends string> = S extends "" ? false : S extends `${string}/${string}` ? false : true;

type Segment<S extends string, Data> = IsSegment<S> extends true ? Data : NoRoute;

type PostData<P extends string> = P extends "/api/order/create"
  ? Order
  : P extends "/api/payment/pay"
    ? Payment
    : P extends `/api/order/delete/${infer Id}`
      ? Segment<Id, null>
      : P extends `/api/payment/refund/${infer Id}`
        ? Segment<Id, null>
        : P extends `/api/order/${infer Id}/pay`
          ? Segment<Id, null>
          : NoRoute;

type GetData<P extends string> = P extends "/api/test/order/batch"
  ? BatchReport
  : P extends "/api/order/create" | "/api/payment/pay"
    ? NoRoute
    : P extends `/api/order/${infer Id}`
      ? Segment<Id, Order>
      : P extends `/api/payment/${infer Id}`
        ? Segment<Id, Payment>
        : NoRoute;

/** The `data` of a documented route's answer (when its code is 0), or NoRoute. */
type Data<M extends string, P extends string> =
  Uppercase<M> extends "POST" ? PostData<PathOf<P>> : Uppercase<M> extends "GET" ? GetData<PathOf<P>> : NoRoute;

/** The envelope `handle(method, path)` returns: on code 0 `data` is that route's type, on any other code null. */
export type RouteEnvelope<M extends string, P extends string> = [Data<M, P>] extends [NoRoute]
  ? Envelope
  : Envelope<Exclude<Data<M, P>, NoRoute>>;

/** What `request(method, path)` returns: the HTTP response around that envelope. */
export type RouteResponse<M extends string, P extends string> = Omit<HttpResponse, "body"> & {
  body: RouteEnvelope<M, P>;
};
