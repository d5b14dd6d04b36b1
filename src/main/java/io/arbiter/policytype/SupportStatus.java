package io.arbiter.policytype;

/** Where a version of a policy type stands. {@code UNSUPPORTED} versions are refused; {@code DEPRECATED} ones warn. */
public enum SupportStatus { EXPERIMENTAL, SUPPORTED, DEPRECATED, UNSUPPORTED }
