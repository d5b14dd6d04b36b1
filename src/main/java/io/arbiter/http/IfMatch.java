package io.arbiter.http;

import io.arbiter.decision.RevisionMatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code If-Match} (RFC 9110 section 13.1.1): {@code *}, or a comma-separated list of entity tags compared
 * strongly, so a weak tag ({@code W/"..."}) never matches. Anything else is a 400.
 */
final class IfMatch {

    private IfMatch() {
    }

    /** The condition the header fields state; empty when there are none. */
    static Optional<RevisionMatch> parse(List<String> fields) {
        if (fields.isEmpty()) {
            return Optional.empty();
        }
        String value = String.join(",", fields).trim();
        if (value.equals("*")) {
            return Optional.of(new RevisionMatch(true, List.of()));
        }
        List<String> strong = new ArrayList<>();
        int tags = 0;
        int at = 0;
        while (at < value.length()) {
            char c = value.charAt(at);
            if (c == ',' || c == ' ' || c == '\t') {
                at++;
                continue;
            }
            boolean weak = value.startsWith("W/", at);
            int open = weak ? at + 2 : at;
            if (open >= value.length() || value.charAt(open) != '"') {
                throw invalid();
            }
            int close = open + 1;
            while (close < value.length() && isTagChar(value.charAt(close))) {
                close++;
            }
            if (close >= value.length() || value.charAt(close) != '"') {
                throw invalid();
            }
            if (!weak) {
                strong.add(value.substring(open + 1, close));
            }
            tags++;
            at = close + 1;
            if (at < value.length() && value.charAt(at) != ',' && value.charAt(at) != ' ' && value.charAt(at) != '\t') {
                throw invalid();
            }
        }
        if (tags == 0) {
            throw invalid();
        }
        return Optional.of(new RevisionMatch(false, strong));
    }

    /** etagc: any visible character but the double quote, or obs-text. */
    private static boolean isTagChar(char c) {
        return c == 0x21 || (c >= 0x23 && c <= 0x7E) || (c >= 0x80 && c <= 0xFF);
    }

    private static ApiError invalid() {
        return new ApiError(400, "INVALID_REQUEST",
                "If-Match must be * or a comma-separated list of quoted entity tags, such as \"3f2a9c0d1e4b5a67\"");
    }
}
