// Runs one echo canceller (or `none`: the microphone as it is) over a recorded microphone and the reference the program played, for
// scripts/bench/aec_bench.py (issue 41): speexdsp (what EchoCanceller wraps, same calls and
// settings) or webrtc-audio-processing 0.3 (the engine behind module-echo-cancel), to choose one.
//
//   aec_compare ENGINE FAR.raw FAR_RATE MIC.raw OUT.raw [key=value...]
//
// webrtc only where it was built with -DHAVE_WEBRTC (libwebrtc-audio-processing-dev installed).
// Raw files are mono signed 16-bit; the microphone and the output are 16 kHz. The reference is
// brought to 16 kHz with speexdsp's resampler, as EchoCanceller's caller does. Prints the CPU
// seconds spent per second of audio (resampling included).
// Keys: frame (samples, speex; webrtc is always 160), filter_ms (speex), pp (none | echo |
// denoise: speex's residual-echo suppressor, which works only with its noise suppressor on),
// noise_db, echo_db, echo_active_db (speex's suppression depths, dB, negative),
// level (low | moderate | high, webrtc), delay_ms (webrtc's delay hint), extended, agnostic (0|1).
#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>
#include <speex/speex_resampler.h>
#ifdef HAVE_WEBRTC
#include <webrtc/modules/audio_processing/include/audio_processing.h>
#include <webrtc/common.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

static std::vector<int16_t> readRaw(const char* path) {
    std::vector<int16_t> samples;
    FILE* f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    int16_t buffer[4096];
    size_t n;
    while ((n = fread(buffer, 2, 4096, f)) > 0) samples.insert(samples.end(), buffer, buffer + n);
    fclose(f);
    return samples;
}

// `rate` may be fractional: the reference's rate as the microphone's clock counts it (a device
// on another clock), which StreamingResampler.setInputRate does the same way.
static std::vector<int16_t> to16k(const std::vector<int16_t>& far, double rate) {
    if (rate == 16000) return far;
    int err = 0;
    SpeexResamplerState* r = speex_resampler_init_frac(1, (spx_uint32_t)llround(rate * 1000), 16000 * 1000,
                                                       (spx_uint32_t)llround(rate), 16000, 5, &err);
    speex_resampler_skip_zeros(r);
    std::vector<int16_t> out(far.size() * 16000 / rate + 1024);
    spx_uint32_t inLen = far.size(), outLen = out.size();
    speex_resampler_process_int(r, 0, far.data(), &inLen, out.data(), &outLen);
    out.resize(outLen);
    speex_resampler_destroy(r);
    return out;
}

int main(int argc, char** argv) {
    if (argc < 6) { fprintf(stderr, "usage: aec_compare ENGINE FAR.raw FAR_RATE MIC.raw OUT.raw [k=v...]\n"); return 2; }
    std::string engine = argv[1];
    std::map<std::string, std::string> opt = {{"frame", "160"}, {"filter_ms", "250"}, {"pp", "echo"},
        {"level", "moderate"}, {"delay_ms", "0"}, {"extended", "1"}, {"agnostic", "0"}};
    for (int i = 6; i < argc; i++) {
        const char* eq = strchr(argv[i], '=');
        if (!eq) { fprintf(stderr, "bad option %s\n", argv[i]); return 2; }
        opt[std::string(argv[i], eq - argv[i])] = eq + 1;
    }
    std::vector<int16_t> farIn = readRaw(argv[2]);
    std::vector<int16_t> mic = readRaw(argv[4]);
    clock_t start = clock();
    std::vector<int16_t> far = to16k(farIn, atof(argv[3]));
    far.resize(mic.size(), 0);
    std::vector<int16_t> out(mic.size(), 0);

    if (engine == "none") {
        out = mic;
    } else if (engine == "speex") {
        int frame = atoi(opt["frame"].c_str());
        int rate = 16000;
        SpeexEchoState* st = speex_echo_state_init(frame, atoi(opt["filter_ms"].c_str()) * 16);
        speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
        SpeexPreprocessState* pp = nullptr;
        if (opt["pp"] != "none") {
            pp = speex_preprocess_state_init(frame, rate);
            speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_STATE, st);
            // speexdsp applies the residual-echo gain only with its noise suppressor on
            // (preprocess.c sets every gain to 1 otherwise): pp=echo is the canceller alone.
            int denoise = opt["pp"] == "denoise";
            speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_DENOISE, &denoise);
            if (opt.count("noise_db")) { int v = atoi(opt["noise_db"].c_str()); speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &v); }
            if (opt.count("echo_db")) { int v = atoi(opt["echo_db"].c_str()); speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, &v); }
            if (opt.count("echo_active_db")) { int v = atoi(opt["echo_active_db"].c_str()); speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, &v); }
        }
        for (size_t at = 0; at + frame <= mic.size(); at += frame) {
            speex_echo_cancellation(st, &mic[at], &far[at], &out[at]);
            if (pp) speex_preprocess_run(pp, &out[at]);
        }
        if (pp) speex_preprocess_state_destroy(pp);
        speex_echo_state_destroy(st);
#ifdef HAVE_WEBRTC
    } else if (engine == "webrtc") {
        webrtc::Config config;
        config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(opt["extended"] == "1"));
        config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(opt["agnostic"] == "1"));
        webrtc::AudioProcessing* apm = webrtc::AudioProcessing::Create(config);
        apm->echo_cancellation()->enable_drift_compensation(false);
        std::string level = opt["level"];
        apm->echo_cancellation()->set_suppression_level(
            level == "low" ? webrtc::EchoCancellation::kLowSuppression
            : level == "high" ? webrtc::EchoCancellation::kHighSuppression
                              : webrtc::EchoCancellation::kModerateSuppression);
        apm->echo_cancellation()->Enable(true);
        webrtc::StreamConfig mono(16000, 1);
        const int frame = 160;
        float farF[frame], micF[frame], outF[frame];
        int delay = atoi(opt["delay_ms"].c_str());
        for (size_t at = 0; at + frame <= mic.size(); at += frame) {
            for (int i = 0; i < frame; i++) { farF[i] = far[at + i] / 32768.0f; micF[i] = mic[at + i] / 32768.0f; }
            float* farP = farF; float* micP = micF; float* outP = outF;
            if (apm->ProcessReverseStream(&farP, mono, mono, &farP) != 0) { fprintf(stderr, "reverse failed\n"); return 1; }
            apm->set_stream_delay_ms(delay);
            if (apm->ProcessStream(&micP, mono, mono, &outP) != 0) { fprintf(stderr, "process failed\n"); return 1; }
            for (int i = 0; i < frame; i++) {
                float v = outF[i] * 32768.0f;
                out[at + i] = v > 32767 ? 32767 : v < -32768 ? -32768 : (int16_t)v;
            }
        }
        delete apm;
#endif
    } else {
        fprintf(stderr, "unknown engine %s\n", engine.c_str());
        return 2;
    }
    double cpu = double(clock() - start) / CLOCKS_PER_SEC;
    FILE* f = fopen(argv[5], "wb");
    fwrite(out.data(), 2, out.size(), f);
    fclose(f);
    printf("%.5f\n", cpu / (mic.size() / 16000.0));
    return 0;
}
