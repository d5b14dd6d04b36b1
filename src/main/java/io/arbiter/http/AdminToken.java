package io.arbiter.http;

/**
 * The admin token as configured ({@code ARBITER_ADMIN_TOKEN}). A token read from a file, as a Kubernetes Secret made
 * with {@code --from-file} is, ends in a newline that no client sends: leading and trailing whitespace is not part of
 * it, as it is not part of the token a client presents. What is left must be something a client can send in one
 * {@code Authorization} header, or no request could ever match it and administration would be off without a word.
 */
public final class AdminToken {

    /** The variable the token is read from. */
    public static final String VARIABLE = "ARBITER_ADMIN_TOKEN";

    private AdminToken() {
    }

    /**
     * @param value the variable's value, or null when it is not set
     * @return the token without leading and trailing whitespace, or null when none is configured (administration off)
     * @throws IllegalArgumentException when the variable is set but holds no usable token; the message says why and
     *                                  what to do, and never repeats the token
     */
    public static String configured(String value) {
        if (value == null) {
            return null;
        }
        String token = value.trim();
        if (token.isEmpty()) {
            throw new IllegalArgumentException(VARIABLE + " is set but empty (or only whitespace): set it to the token, "
                    + "or unset it to serve with policy administration off");
        }
        for (int at = 0; at < token.length(); at++) {
            char c = token.charAt(at);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
                throw new IllegalArgumentException(VARIABLE + " holds whitespace or a control character at character "
                        + (at + 1) + " of the token: a client sends the token in one Authorization header, so no request "
                        + "could match it; use one word of printable characters (e.g. openssl rand -hex 24)");
            }
        }
        return token;
    }
}
