package io.upic.liftride.client.http.sdk;

import io.upic.liftride.sdk.ApiClient;
import io.upic.liftride.sdk.ApiException;
import io.upic.liftride.sdk.ApiResponse;
import java.io.InterruptedIOException;
import java.lang.reflect.Type;
import okhttp3.Call;

/**
 * The generated {@link ApiClient} with a deadline on each whole call ({@link CallDeadlines}): every
 * generated API method runs its call through {@link #execute(Call, Type)}, which is bounded here. A
 * call cancelled for its deadline fails with {@code InterruptedIOException("timeout")}, as OkHttp's
 * own timeouts do, unless a status had arrived (then the {@link ApiException} carries it). One per
 * worker; not thread-safe.
 */
class DeadlineApiClient extends ApiClient {

    private final CallDeadlines.Slot slot;

    DeadlineApiClient(CallDeadlines.Slot slot) {
        this.slot = slot;
    }

    @Override
    public <T> ApiResponse<T> execute(Call call, Type returnType) throws ApiException {
        slot.begin(call);
        try {
            return super.execute(call, returnType);
        } catch (ApiException e) {
            if (e.getCode() == 0 && slot.expired(call)) {
                InterruptedIOException timeout = new InterruptedIOException("timeout");
                timeout.initCause(e.getCause());
                throw new ApiException(timeout);
            }
            throw e;
        } finally {
            slot.end();
        }
    }
}
