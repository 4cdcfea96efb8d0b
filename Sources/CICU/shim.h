// ICU renames every C entry point with its version (ubrk_open → ubrk_open_72), which Swift
// would then have to spell. These inline wrappers keep the Swift side version-independent.
//
// Only ICU's macro headers are included here, never its type headers: Foundation on Linux
// carries its own copy of ICU (module _FoundationICU) whose UErrorCode, UChar, … would clash
// with the system's in any Swift module that imports both. So the few entry points we use are
// declared below with plain C types of the same ABI (enums are int, UChar is 16 bits).
#include <stdint.h>
#include <unicode/uconfig.h>
#include <unicode/uvernum.h>

#if U_DISABLE_RENAMING
#define CICU_ICU(name) name
#else
#define CICU_ICU(name) U_ICU_ENTRY_POINT_RENAME(name)
#endif

/// An ICU UBreakIterator, kept opaque.
typedef struct CICUBreakIterator CICUBreakIterator;

CICUBreakIterator *CICU_ICU(ubrk_open)(int32_t type, const char *locale, const uint16_t *text,
                                       int32_t length, int32_t *status);
int32_t CICU_ICU(ubrk_first)(CICUBreakIterator *it);
int32_t CICU_ICU(ubrk_next)(CICUBreakIterator *it);
void CICU_ICU(ubrk_close)(CICUBreakIterator *it);
int32_t CICU_ICU(ubrk_getRuleStatus)(CICUBreakIterator *it);
const char *CICU_ICU(u_errorName)(int32_t status);

/// UBRK_WORD and UBRK_SENTENCE in ubrk.h.
enum { CICU_BREAK_WORD = 1, CICU_BREAK_SENTENCE = 3 };
/// UBRK_WORD_NONE_LIMIT in ubrk.h: a word segment's rule status at or above it is a word
/// (letters, numbers, kana, ideographs), below it spaces and punctuation.
enum { CICU_WORD_NONE_LIMIT = 100 };
/// UBRK_DONE in ubrk.h: no further boundary.
enum { CICU_DONE = -1 };

static inline CICUBreakIterator *cicu_sentence_iterator(const char *locale, const uint16_t *text,
                                                        int32_t length, int32_t *status) {
    return CICU_ICU(ubrk_open)(CICU_BREAK_SENTENCE, locale, text, length, status);
}
static inline CICUBreakIterator *cicu_word_iterator(const char *locale, const uint16_t *text,
                                                    int32_t length, int32_t *status) {
    return CICU_ICU(ubrk_open)(CICU_BREAK_WORD, locale, text, length, status);
}
static inline int32_t cicu_rule_status(CICUBreakIterator *it) { return CICU_ICU(ubrk_getRuleStatus)(it); }
static inline int32_t cicu_first(CICUBreakIterator *it) { return CICU_ICU(ubrk_first)(it); }
static inline int32_t cicu_next(CICUBreakIterator *it) { return CICU_ICU(ubrk_next)(it); }
static inline void cicu_close(CICUBreakIterator *it) { CICU_ICU(ubrk_close)(it); }
/// U_FAILURE: warnings are negative, U_ZERO_ERROR is 0, errors are positive.
static inline int cicu_failure(int32_t status) { return status > 0 ? 1 : 0; }
static inline const char *cicu_error_name(int32_t status) { return CICU_ICU(u_errorName)(status); }
