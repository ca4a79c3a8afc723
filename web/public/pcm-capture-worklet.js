/* global AudioWorkletProcessor, registerProcessor -- the AudioWorkletGlobalScope provides them */
// AudioWorklet processor for heart-sound recording: copies every block of the first input channel
// (raw PCM, Float32 at the context's sample rate) to the main thread.
class PcmCaptureProcessor extends AudioWorkletProcessor {
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel && channel.length > 0) this.port.postMessage(channel.slice(0));
    return true;
  }
}

registerProcessor('pcm-capture', PcmCaptureProcessor);
