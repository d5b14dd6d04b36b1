package io.arbiter.kubernetes;

import io.arbiter.decision.Settings;
import io.arbiter.decision.SnapshotLoadException;
import io.arbiter.engine.RuleFiles;
import io.fabric8.kubernetes.api.model.ConfigMap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the ConfigMaps of one instance hold at one moment, immutable: the policy text and, per rule folder that has a
 * ConfigMap, its files. Its {@link #revision()} is a hash of that content alone (names, keys, bytes), so every replica
 * that sees the same ConfigMaps computes the same revision, whatever their resourceVersions.
 *
 * @param policy       the policy ConfigMap's {@code policy.yaml}, or null when the ConfigMap or the key is absent
 * @param folders      rule folder → file name → content, for the folders that have a ConfigMap
 * @param objects      ConfigMap name → the object it was read from (for Events: uid and resourceVersion)
 */
record SourceContent(byte[] policy, SortedMap<String, SortedMap<String, byte[]>> folders, Map<String, ConfigMap> objects,
                     String revision) {

    /** The content of {@code configMaps} that concerns {@code instance} and its {@code ruleFolders}; others are ignored. */
    static SourceContent of(String instance, List<String> ruleFolders, List<ConfigMap> configMaps) {
        byte[] policy = null;
        SortedMap<String, SortedMap<String, byte[]>> folders = new TreeMap<>();
        Map<String, ConfigMap> objects = new TreeMap<>();
        for (ConfigMap configMap : configMaps) {
            String name = configMap.getMetadata().getName();
            if (name.equals(ConfigMapNames.policy(instance))) {
                objects.put(name, configMap);
                String text = configMap.getData() == null ? null : configMap.getData().get(ConfigMapNames.POLICY_KEY);
                policy = text == null ? null : text.getBytes(StandardCharsets.UTF_8);
                continue;
            }
            for (String folder : ruleFolders) {
                if (name.equals(ConfigMapNames.rules(instance, folder))) {
                    objects.put(name, configMap);
                    folders.put(folder, files(configMap));
                }
            }
        }
        return new SourceContent(policy, folders, objects, revisionOf(policy, folders));
    }

    private static SortedMap<String, byte[]> files(ConfigMap configMap) {
        SortedMap<String, byte[]> files = new TreeMap<>();
        if (configMap.getData() != null) {
            configMap.getData().forEach((key, text) -> files.put(key, text.getBytes(StandardCharsets.UTF_8)));
        }
        if (configMap.getBinaryData() != null) {
            configMap.getBinaryData().forEach((key, base64) -> files.put(key, Base64.getMimeDecoder().decode(base64)));
        }
        return files;
    }

    private static String revisionOf(byte[] policy, SortedMap<String, SortedMap<String, byte[]>> folders) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        digest.update(policy == null ? new byte[]{0} : policy);
        folders.forEach((folder, files) -> files.forEach((name, content) -> {
            digest.update((byte) 0);
            digest.update((folder + "/" + name).getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(content);
        }));
        return HexFormat.of().formatHex(digest.digest(), 0, 8);
    }

    /**
     * Writes the content as the folders {@code serve --policy --rules --decision-tables} read, under {@code dir}: the
     * policy, then per folder its ConfigMap's files ({@code *.drl} under {@code rules/}, every other key under
     * {@code decision-tables/}, where a misnamed table is refused as on disk), or the packaged files of a folder that
     * has no ConfigMap. The snapshot is then loaded from there, as a file reload is.
     */
    Settings materialize(Path dir, Settings base, List<String> ruleFolders, String instance) {
        if (policy == null) {
            throw new SnapshotLoadException("the ConfigMap " + ConfigMapNames.policy(instance) + " has no key "
                    + ConfigMapNames.POLICY_KEY + (objects.containsKey(ConfigMapNames.policy(instance)) ? ""
                    : ": the ConfigMap does not exist, or lacks the labels " + ConfigMapNames.selector(instance)));
        }
        try {
            Path policyFile = dir.resolve(ConfigMapNames.POLICY_KEY);
            Files.write(policyFile, policy);
            Path rules = Files.createDirectories(dir.resolve("rules"));
            Path tables = Files.createDirectories(dir.resolve("decision-tables"));
            for (String folder : ruleFolders) {
                Path ruleFolder = Files.createDirectories(rules.resolve(folder));
                Path tableFolder = Files.createDirectories(tables.resolve(folder));
                SortedMap<String, byte[]> files = folders.get(folder);
                if (files == null) {
                    copyPackaged("rules/" + folder, ruleFolder);
                    copyPackaged("decision-tables/" + folder, tableFolder);
                    continue;
                }
                for (Map.Entry<String, byte[]> file : files.entrySet()) {
                    Path target = (file.getKey().endsWith(".drl") ? ruleFolder : tableFolder).resolve(file.getKey());
                    Files.write(target, file.getValue());
                }
            }
            return base.withPolicyFile(policyFile).withRules(rules, tables);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ConfigMaps' content to " + dir, e);
        }
    }

    private static void copyPackaged(String classpathFolder, Path target) throws IOException {
        Path packaged = RuleFiles.optionalClasspathFolder(classpathFolder);
        for (Path file : RuleFiles.filesUnder(packaged)) {
            Files.write(target.resolve(file.getFileName().toString()), Files.readAllBytes(file));
        }
    }

    /** Names of the ConfigMaps whose content differs from {@code other}'s (all of them when other is null). */
    List<String> changedSince(SourceContent other) {
        return objects.keySet().stream().filter(name -> other == null || !other.objects.containsKey(name)
                || !java.util.Objects.equals(other.objects.get(name).getData(), objects.get(name).getData())
                || !java.util.Objects.equals(other.objects.get(name).getBinaryData(), objects.get(name).getBinaryData()))
                .toList();
    }
}
