package io.arbiter.engine;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/** Renders the {@link FactId} template of a fact's type; each type's template is parsed once. */
final class FactIds {

    private static final ClassValue<Template> TEMPLATES = new ClassValue<>() {
        @Override
        protected Template computeValue(Class<?> type) {
            return Template.of(type);
        }
    };

    private FactIds() {
    }

    static String render(Fact fact) {
        return TEMPLATES.get(fact.getClass()).render(fact);
    }

    /** Parses the template of {@code type}, failing as a first use would: for a test to check every fact type. */
    static void check(Class<? extends Fact> type) {
        TEMPLATES.get(type);
    }

    /** Literal texts and, between them, the method chains whose values are written there. */
    private record Template(List<String> texts, List<MethodHandle> values) {

        String render(Object fact) {
            StringBuilder id = new StringBuilder(texts.get(0));
            for (int i = 0; i < values.size(); i++) {
                try {
                    id.append((Object) values.get(i).invokeExact(fact)).append(texts.get(i + 1));
                } catch (Throwable e) {
                    throw new IllegalStateException("the fact id of " + fact.getClass().getName() + " failed", e);
                }
            }
            return id.toString();
        }

        static Template of(Class<?> type) {
            FactId annotation = type.getAnnotation(FactId.class);
            if (annotation == null) {
                throw new IllegalStateException(type.getName() + " is a Fact without a @FactId template or a factId() of its own");
            }
            String template = annotation.value();
            List<String> texts = new ArrayList<>();
            List<MethodHandle> values = new ArrayList<>();
            int at = 0;
            while (true) {
                int open = template.indexOf('{', at);
                if (open < 0) {
                    texts.add(template.substring(at));
                    return new Template(List.copyOf(texts), List.copyOf(values));
                }
                int close = template.indexOf('}', open);
                if (close < 0) {
                    throw new IllegalStateException(type.getName() + ": @FactId(\"" + template + "\") has an unclosed {");
                }
                texts.add(template.substring(at, open));
                values.add(chain(type, template.substring(open + 1, close)));
                at = close + 1;
            }
        }

        /** {@code a.b.c}: the value of {@code a().b().c()} on a fact of {@code type}, as an {@code (Object)Object}. */
        private static MethodHandle chain(Class<?> type, String path) {
            MethodHandle chain = null;
            Class<?> on = type;
            for (String name : path.split("\\.", -1)) {
                Method method;
                try {
                    method = on.getMethod(name);
                } catch (NoSuchMethodException e) {
                    throw new IllegalStateException(type.getName() + ": @FactId names {" + path + "}, but "
                            + on.getName() + " has no public method " + name + "()");
                }
                if (Modifier.isStatic(method.getModifiers()) || method.getReturnType() == void.class) {
                    throw new IllegalStateException(type.getName() + ": @FactId names {" + path + "}, but "
                            + on.getName() + "." + name + "() is static or returns nothing");
                }
                MethodHandle step;
                try {
                    method.setAccessible(true); // nested records of a final holder class are public, the holder may not be exported
                    step = MethodHandles.lookup().unreflect(method).asType(MethodType.methodType(Object.class, Object.class));
                } catch (IllegalAccessException | RuntimeException e) {
                    throw new IllegalStateException(type.getName() + ": @FactId cannot call " + on.getName() + "." + name + "()", e);
                }
                chain = chain == null ? step : MethodHandles.filterReturnValue(chain, step);
                on = method.getReturnType();
            }
            return chain;
        }
    }
}
