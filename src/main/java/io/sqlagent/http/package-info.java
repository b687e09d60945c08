/**
 * The HTTP edge every request passes (framing, origin, connection limits: {@link io.sqlagent.http.EdgeFilter}) and
 * what every resource shares: the one error shape ({@link io.sqlagent.http.ErrorBody}) and its mapper, JSON body
 * reading, UUID checks and client-connection watching. It sits below every capability's resources, so it knows the
 * tool contract and the store's errors, never a capability.
 */
package io.sqlagent.http;
