package io.upic.liftride.client.cli;

import io.upic.liftride.client.live.MetricsAddress;
import java.nio.file.Path;
import lombok.With;

/**
 * What an invocation shows and writes besides its console account; each field's rule is its flag's in {@link
 * RunOptions}. Immutable.
 *
 * @param summaryJson    --summary-json: where the JSON summary goes; null: not written
 * @param quiet          --quiet: no progress output (neither the line nor the plain 10 s lines)
 * @param verbose        --verbose: the full account of every step on the console, not the brief one
 * @param progress       --progress: show the progress line even when not on a terminal
 * @param metricsAddress --metrics-port: where the live metrics are served while the client runs; null: not
 */
@With
public record Output(
        Path summaryJson, boolean quiet, boolean verbose, boolean progress, MetricsAddress metricsAddress) {}
