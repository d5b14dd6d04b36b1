package io.arbiter.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Takes what some loggers write while a test runs, instead of the test log: the errors a test provokes on purpose (a
 * failing sink, a broken rule file) are then its to assert on, and a passing run does not print them as errors.
 * Every other logger still prints. When the test fails, what was taken is printed after all, to explain it.
 *
 * <pre>{@code
 * @RegisterExtension
 * final LogCapture logs = LogCapture.of(FileDecisionLog.class);
 * ...
 * logs.await(Level.ERROR, "No space left on device");
 * }</pre>
 *
 * A {@code static} field takes them for the whole class, which suits a writer thread that may log after its test.
 */
public final class LogCapture implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private static final Duration AWAIT = Duration.ofSeconds(10);

    private final List<String> names;
    private final List<ILoggingEvent> events = new CopyOnWriteArrayList<>();
    /** Fired after each event taken, for {@link #await}. */
    private final Signal appended = new Signal();
    private final List<Taken> taken = new ArrayList<>();
    private Level from = Level.WARN;
    private boolean forClass;
    /** Where the events of the running test begin, for printing them if it fails. */
    private int testStart;

    private LogCapture(List<String> names) {
        this.names = names;
    }

    /** Takes what the loggers of these classes write. */
    public static LogCapture of(Class<?>... classes) {
        return of(Arrays.stream(classes).map(Class::getName).toArray(String[]::new));
    }

    /** Takes what these loggers, and the loggers below them ({@code "com.networknt.schema"}), write. */
    public static LogCapture of(String... loggers) {
        if (loggers.length == 0) {
            throw new IllegalArgumentException("name at least one logger");
        }
        return new LogCapture(List.of(loggers));
    }

    /**
     * Takes events from {@code level} up, whatever level the test log is set to (from WARN unless told), to assert on
     * a DEBUG line, say.
     */
    public LogCapture from(Level level) {
        this.from = level;
        return this;
    }

    /** Every event taken so far, oldest first. */
    public List<ILoggingEvent> events() {
        return List.copyOf(events);
    }

    /** The messages taken at {@code level}, formatted, oldest first. */
    public List<String> messages(Level level) {
        return events.stream().filter(event -> event.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }

    /**
     * The first message at {@code level} that contains {@code fragment}, waiting for it up to ten seconds (a writer
     * thread may log after the test saw the outcome); fails naming what was taken instead.
     */
    public String await(Level level, String fragment) {
        try {
            return appended.await(() -> messages(level).stream().filter(message -> message.contains(fragment)).findFirst(),
                    java.util.Optional::isPresent, AWAIT, none -> "no " + level + " message containing '" + fragment
                            + "' from " + names + "; taken: " + describe()).orElseThrow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while waiting for a log message");
        }
    }

    /** Forgets what was taken so far. */
    public void clear() {
        events.clear();
        testStart = 0;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        forClass = true;
        attach();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        detach();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!forClass) {
            events.clear();
            attach();
        }
        testStart = events.size();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            Logger root = context().getLogger(Logger.ROOT_LOGGER_NAME);
            List<ILoggingEvent> all = List.copyOf(events);
            all.subList(Math.min(testStart, all.size()), all.size()).forEach(root::callAppenders);
        }
        if (!forClass) {
            detach();
        }
    }

    private void attach() {
        LoggerContext context = context();
        for (String name : names) {
            Logger logger = context.getLogger(name);
            Appender appender = new Appender(events, appended);
            appender.setContext(context);
            appender.setName("log-capture");
            appender.start();
            taken.add(new Taken(logger, appender, logger.getLevel(), logger.isAdditive()));
            logger.addAppender(appender);
            logger.setAdditive(false);
            if (!logger.isEnabledFor(from)) {
                logger.setLevel(from);
            }
        }
    }

    private void detach() {
        for (Taken each : taken) {
            each.logger.detachAppender(each.appender);
            each.appender.stop();
            each.logger.setAdditive(each.additive);
            each.logger.setLevel(each.level);
        }
        taken.clear();
    }

    private String describe() {
        return events.isEmpty() ? "nothing" : events.stream()
                .map(event -> event.getLevel() + " " + event.getLoggerName() + " - " + event.getFormattedMessage())
                .toList().toString();
    }

    private static LoggerContext context() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
    }

    private record Taken(Logger logger, Appender appender, Level level, boolean additive) {
    }

    private static final class Appender extends AppenderBase<ILoggingEvent> {

        private final List<ILoggingEvent> events;
        private final Runnable appended;

        Appender(List<ILoggingEvent> events, Runnable appended) {
            this.events = events;
            this.appended = appended;
        }

        @Override
        protected void append(ILoggingEvent event) {
            // formatted now, on the logging thread, while its arguments are as they were
            event.prepareForDeferredProcessing();
            events.add(event);
            appended.run();
        }
    }
}
