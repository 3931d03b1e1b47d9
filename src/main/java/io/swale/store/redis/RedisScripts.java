package io.swale.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/** The Lua scripts of the task-instance transitions, each prefixed with the shared helpers of lib.lua it uses. */
final class RedisScripts {
    /** One loaded script: called by SHA, loaded again after a Redis restart dropped its cache. */
    record Script(String name, String source, String sha) {
        Object call(UnifiedJedis jedis, List<String> keys, List<String> args) {
            try {
                return jedis.evalsha(sha, keys, args);
            } catch (JedisNoScriptException e) {
                return jedis.eval(source, keys, args);
            }
        }
    }

    /** Each folder's lib.lua, read and split once for all of its scripts. */
    private static final java.util.Map<String, LuaPrelude> PRELUDES = new java.util.concurrent.ConcurrentHashMap<>();

    final Script submit = load("submit");
    final Script claim = load("claim");
    final Script heartbeat = load("heartbeat");
    final Script finish = load("finish");
    final Script retry = load("retry");
    final Script release = load("release");
    final Script redispatch = load("redispatch");
    final Script reap = load("reap");
    final Script cancel = load("cancel");
    final Script request = load("request");
    final Script reserve = load("reserve");
    final Script giveBack = load("giveback");
    final Script settle = load("settle");
    final Script dropActive = load("dropactive");
    final Script deadLettered = load("deadlettered");
    final Script takeDeadLetter = load("takedeadletter");
    final Script zremIfScore = load("zremifscore");
    final Script putRun = load("putrun");
    final Script expireRun = load("expirerun");
    final Script deleteIfEqual = load("delifequal");
    final Script expireIfEqual = load("pexpifequal");
    final Script removeEntry = load("removeentry");
    final Script forgetGraph = load("forgetgraph");
    final Script advance = load("advance");
    final Script submitItems = load("submititems");
    final Script derive = load("derive");
    final Script createRun = load("createrun");
    final Script movePointer = load("movepointer");

    /** Every script: each must touch keys of one hash slot (the Cluster ITs run each of them). */
    List<Script> all() {
        return List.of(submit, claim, heartbeat, finish, retry, release, redispatch, reap, cancel, request, reserve, giveBack,
                settle, dropActive, deadLettered, takeDeadLetter, zremIfScore, putRun, expireRun, deleteIfEqual,
                expireIfEqual, removeEntry, forgetGraph, advance, submitItems, derive, createRun,
                movePointer);
    }

    private static Script load(String name) {
        return load("/redis/", name);
    }

    /** A script of {@code folder} (a classpath folder ending in /), prefixed with what it uses of that folder's lib.lua. */
    static Script load(String folder, String name) {
        String body = resource(folder, name);
        String source = PRELUDES.computeIfAbsent(folder, f -> LuaPrelude.of(resource(f, "lib"))).select(body) + "\n" + body;
        return new Script(name, source, sha1(source));
    }

    private static String resource(String folder, String name) {
        try (InputStream in = RedisScripts.class.getResourceAsStream(folder + name + ".lua")) {
            if (in == null) {
                throw new IllegalStateException("missing script " + folder + name + ".lua");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String text) {
        try {
            var digest = java.security.MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
