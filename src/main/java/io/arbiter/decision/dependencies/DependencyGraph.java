package io.arbiter.decision.dependencies;

import io.arbiter.decision.dependencies.DependencyFacts.DependsOn;
import io.arbiter.decision.dependencies.DependencyFacts.PolicyFact;
import io.arbiter.decision.dependencies.DependencyFacts.StronglyConnected;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place dependency cycles are found: the strongly connected components of the graph of dependency edges
 * between request policies (Tarjan's algorithm, iterative: a chain of thousands of policies must not need a deep
 * stack), each with its loop as the contract reports it. Linear in the edges; the rules of 20-reporting.drl decide
 * which components are cycles.
 */
public final class DependencyGraph {

    private DependencyGraph() {
    }

    /**
     * Every component of the policies the edges touch, each named by its smallest canonical name, with its loop: from
     * that policy, along the edges, each step to the smallest member not yet on the loop, until none is left.
     */
    public static List<StronglyConnected> stronglyConnected(Collection<?> edges) {
        Map<PolicyFact, List<PolicyFact>> next = new HashMap<>();
        for (Object edge : edges) {
            DependsOn dependsOn = (DependsOn) edge;
            next.computeIfAbsent(dependsOn.from(), k -> new ArrayList<>()).add(dependsOn.to());
            next.computeIfAbsent(dependsOn.to(), k -> new ArrayList<>());
        }
        // visit in a fixed order, so the same request gives the same components in the same order
        List<PolicyFact> nodes = new ArrayList<>(next.keySet());
        nodes.sort(Comparator.comparingInt(PolicyFact::index));
        Map<PolicyFact, Integer> index = new HashMap<>();
        Map<PolicyFact, Integer> low = new HashMap<>();
        Deque<PolicyFact> stack = new ArrayDeque<>();
        java.util.Set<PolicyFact> onStack = new java.util.HashSet<>();
        List<StronglyConnected> components = new ArrayList<>();
        for (PolicyFact root : nodes) {
            if (index.containsKey(root)) {
                continue;
            }
            // each frame: a node and how many of its successors it has visited
            Deque<Object[]> frames = new ArrayDeque<>();
            frames.push(new Object[] {root, 0});
            index.put(root, index.size());
            low.put(root, index.get(root));
            stack.push(root);
            onStack.add(root);
            while (!frames.isEmpty()) {
                Object[] frame = frames.peek();
                PolicyFact node = (PolicyFact) frame[0];
                List<PolicyFact> successors = next.get(node);
                int position = (Integer) frame[1];
                if (position < successors.size()) {
                    frame[1] = position + 1;
                    PolicyFact successor = successors.get(position);
                    if (!index.containsKey(successor)) {
                        index.put(successor, index.size());
                        low.put(successor, index.get(successor));
                        stack.push(successor);
                        onStack.add(successor);
                        frames.push(new Object[] {successor, 0});
                    } else if (onStack.contains(successor)) {
                        low.put(node, Math.min(low.get(node), index.get(successor)));
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    PolicyFact parent = (PolicyFact) frames.peek()[0];
                    low.put(parent, Math.min(low.get(parent), low.get(node)));
                }
                if (low.get(node).equals(index.get(node))) {
                    List<PolicyFact> members = new ArrayList<>();
                    PolicyFact member;
                    do {
                        member = stack.pop();
                        onStack.remove(member);
                        members.add(member);
                    } while (!member.equals(node));
                    members.sort(Comparator.comparing(PolicyFact::canonical).thenComparingInt(PolicyFact::index));
                    components.add(new StronglyConnected(members.get(0), List.copyOf(members), loop(members, next)));
                }
            }
        }
        return components;
    }

    private static List<PolicyFact> loop(List<PolicyFact> members, Map<PolicyFact, List<PolicyFact>> next) {
        java.util.Set<PolicyFact> left = new java.util.HashSet<>(members);
        List<PolicyFact> loop = new ArrayList<>();
        PolicyFact at = members.get(0);
        while (at != null && left.remove(at)) {
            loop.add(at);
            at = next.get(at).stream().filter(left::contains).min(Comparator.comparing(PolicyFact::canonical)).orElse(null);
        }
        return List.copyOf(loop);
    }
}
