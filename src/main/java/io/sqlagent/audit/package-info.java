/**
 * The audit log of tool calls: {@link io.sqlagent.audit.AuditLog} listens to every execution and writes it behind, in
 * batches, into the store's {@code tool_call_audit}. The executor knows only its listener interface; the log is read
 * back over REST by {@code rest.AuditResource}.
 */
package io.sqlagent.audit;
