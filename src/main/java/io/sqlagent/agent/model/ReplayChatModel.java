package io.sqlagent.agent.model;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;

/**
 * The replay model ({@code sqlagent.model.replay-file}) as a langchain4j {@link StreamingChatModel}: it
 * stands where the OpenAI client stands, so the agent loop (model turns, the model guard, tools, events,
 * history) runs exactly as with a real model; only the HTTP round trip is left out. An in-process
 * OpenAI-compatible endpoint would have exercised the client too, but would need a listener of its own
 * (or a route on the service's port, behind its authentication) for no change a user can see. Each call
 * is answered by the {@link ModelReplay.Script} from the last question and the model turns since.
 */
public record ReplayChatModel(ModelReplay.Script script) implements StreamingChatModel {

    private static final AtomicLong CALL_IDS = new AtomicLong();

    @Override
    public void chat(ChatRequest request, StreamingChatResponseHandler handler) {
        ModelReplay.Step next = script.next(request.messages().stream().map(ReplayChatModel::message).toList());
        int input = request.messages().toString().length() / 4;
        if (next instanceof ModelReplay.Answer answer) {
            handler.onPartialResponse(answer.text());
            handler.onCompleteResponse(ChatResponse.builder().aiMessage(AiMessage.from(answer.text()))
                    .tokenUsage(new TokenUsage(input, answer.text().length() / 4 + 1)).finishReason(FinishReason.STOP)
                    .build());
            return;
        }
        List<ToolExecutionRequest> calls = new ArrayList<>();
        for (ModelReplay.Call call : ((ModelReplay.Calls) next).calls()) {
            calls.add(ToolExecutionRequest.builder().id("replay-" + CALL_IDS.incrementAndGet()).name(call.tool())
                    .arguments(call.arguments()).build());
        }
        handler.onCompleteResponse(ChatResponse.builder().aiMessage(AiMessage.from(calls))
                .tokenUsage(new TokenUsage(input, calls.toString().length() / 4 + 1))
                .finishReason(FinishReason.TOOL_EXECUTION).build());
    }

    private static ModelReplay.Message message(ChatMessage message) {
        if (message instanceof UserMessage user) {
            return new ModelReplay.Message(ModelReplay.Role.USER, user.hasSingleText() ? user.singleText() : "");
        }
        if (message instanceof AiMessage) {
            return new ModelReplay.Message(ModelReplay.Role.ASSISTANT, "");
        }
        if (message instanceof ToolExecutionResultMessage result) {
            return new ModelReplay.Message(ModelReplay.Role.TOOL, result.text());
        }
        return new ModelReplay.Message(ModelReplay.Role.OTHER, "");
    }
}
