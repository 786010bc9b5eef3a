// rate-limiter-flexible documents RateLimiterStoreAbstract as the base of custom store limiters and
// types it in its index, but its index does not export it at runtime: the class is imported from its
// file, with the index's type.
declare module "rate-limiter-flexible/lib/RateLimiterStoreAbstract.js" {
  import { RateLimiterStoreAbstract } from "rate-limiter-flexible";
  export default RateLimiterStoreAbstract;
}
