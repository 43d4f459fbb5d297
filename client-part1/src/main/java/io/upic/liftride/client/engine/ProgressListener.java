package io.upic.liftride.client.engine;

/**
 * Receives a {@link Progress} snapshot about once per interval from the engine's progress thread,
 * and a last one with {@code finished == true} from the thread that ran the engine. Calls never
 * overlap. Must return quickly.
 */
@FunctionalInterface
public interface ProgressListener {

    void onProgress(Progress progress);
}
