package io.arbiter.audit;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;

/**
 * The lines of a reader, each held only up to a bound: {@link java.io.BufferedReader#readLine} holds a line whatever
 * its length, so one line of gigabytes (a corrupted or hostile file) exhausts the heap. A longer line is read through
 * and dropped, and reported as too long. A line ends at {@code \n}; a {@code \r} before it is not part of the line.
 */
final class BoundedLineReader implements Closeable {

    /** One line: its number from 1, and its text, or null when it was longer than the bound. */
    record Line(long number, String text) {
    }

    private final Reader in;
    private final int maxChars;
    private final char[] buffer = new char[8192];
    private int position;
    private int end;
    private long number;

    BoundedLineReader(Reader in, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be at least 1, not " + maxChars);
        }
        this.in = in;
        this.maxChars = maxChars;
    }

    /** The next line, or null at the end of the input. */
    Line next() throws IOException {
        StringBuilder text = new StringBuilder();
        boolean tooLong = false;
        boolean started = false;
        while (true) {
            if (position == end) {
                int read = in.read(buffer, 0, buffer.length);
                if (read <= 0) {
                    if (!started) {
                        return null;
                    }
                    break;
                }
                position = 0;
                end = read;
            }
            started = true;
            int from = position;
            while (position < end && buffer[position] != '\n') {
                position++;
            }
            int length = position - from;
            // one character more than the bound is kept until the end of the line: it may be the \r before \n
            if (!tooLong && text.length() + length > maxChars + 1) {
                tooLong = true;
                text = null;
            }
            if (!tooLong) {
                text.append(buffer, from, length);
            }
            if (position < end) {
                position++;
                break;
            }
        }
        number++;
        if (!tooLong && text.length() > 0 && text.charAt(text.length() - 1) == '\r') {
            text.setLength(text.length() - 1);
        }
        return new Line(number, tooLong || text.length() > maxChars ? null : text.toString());
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
