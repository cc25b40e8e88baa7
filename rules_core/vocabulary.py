"""The words a person reads for each value the service answers with, in Chinese and English:
every outcome, illegal reason, value item kind, payment and penalty reason, unit, mode,
flower source and meld kind (by their JSON enum names), and every `RuleProfile` field.

Data, not code: the explorer (served as ``/explorer/vocabulary.json`` with the English
meanings of the `.proto` comments), the CLI's tables and the request violations that name an
outcome (`rules_core.validation`, which both faces answer) read these entries; no raw enum name is shown to a person. A test holds the tables complete against the
`.proto` enums and `RuleProfile`'s fields.
"""

from __future__ import annotations

from typing import NamedTuple


class Words(NamedTuple):
    zh: str  # the label in Chinese
    en: str  # the label in English
    zh_meaning: str  # what it means, in Chinese (the English meaning is the .proto comment)


ENUM_WORDS: dict[str, Words] = {
    # Outcome
    "OUTCOME_SELF_DRAW": Words("自摸", "self-draw", "一家自己摸到胡张"),
    "OUTCOME_DISCARD": Words("点炮", "discard win", "一家或几家胡别人打出的牌"),
    "OUTCOME_ROBBING_KONG": Words("抢杠", "robbing-kong win", "胡别人加杠的那张牌"),
    "OUTCOME_EIGHT_FLOWERS": Words("八花", "eight-flowers win", "摸到第八张花立即胡，不看牌"),
    "OUTCOME_EXHAUSTIVE_DRAW": Words("流局", "exhaustive draw", "无人胡牌"),
    "OUTCOME_ABANDON": Words("逃跑", "abandon", "一家中途离开"),
    # IllegalReason
    "ILLEGAL_REASON_INCOMPLETE_SHAPE": Words("牌型不全", "incomplete shape", "没有四副一将，也不是全字牌"),
    "ILLEGAL_REASON_NO_QUALIFYING_PATTERN": Words(
        "无可胡番型", "no qualifying pattern", "牌已成形，但没有本规则允许胡的番型"
    ),
    "ILLEGAL_REASON_MISSED_WIN": Words("漏胡", "missed win", "上次行动后放过了这张胡张"),
    # ItemKind
    "ITEM_KIND_FLOWERS": Words("花", "flowers", "同一种来源的花数相加"),
    "ITEM_KIND_BASE": Words("底", "base", "加上底注花或底分"),
    "ITEM_KIND_FAN": Words("番", "fan", "每一番普通牌值翻一倍"),
    "ITEM_KIND_PATTERN": Words("定值番型", "fixed-value pattern", "番型有固定的值"),
    "ITEM_KIND_CAP": Words("封顶", "cap", "超过一喇（一勒）的部分不计"),
    "ITEM_KIND_THRESHOLD": Words("起喇", "threshold", "三口：到门槛的普通牌值算一喇"),
    "ITEM_KIND_FLOOR": Words("保底", "floor", "勒子：不足一勒的算一勒"),
    "ITEM_KIND_MULTIPLIER": Words("倍数", "multiplier", "荒番或开宝使牌值加倍"),
    # PaymentReason
    "PAYMENT_REASON_SELF_DRAW": Words("自摸", "self-draw", "其余每家都付"),
    "PAYMENT_REASON_DISCARD": Words("点炮", "discard", "放炮的一家付"),
    "PAYMENT_REASON_ROBBING_KONG": Words("抢杠", "robbing a kong", "被抢杠的一家付"),
    "PAYMENT_REASON_EIGHT_FLOWERS": Words("八花", "eight flowers", "按自摸付"),
    "PAYMENT_REASON_LIABILITY": Words("承包", "liability", "被吃碰满数的一家另付"),
    "PAYMENT_REASON_SANKOU": Words("三口", "three claims", "按三口表，有关系的一家付"),
    # PenaltyReason
    "PENALTY_REASON_ABANDON": Words("逃跑", "abandon", "逃跑的一家被罚"),
    # Unit
    "UNIT_FLOWER": Words("花", "flowers", "以花计；封顶叫喇子，一喇 = 20 花"),
    "UNIT_POINT": Words("分", "points", "以分计；封顶叫勒子，一勒 = 10 分"),
    # CombineFixed
    "COMBINE_FIXED_MAX": Words("取最大", "highest counts", "几个定值番型取最高的一个"),
    "COMBINE_FIXED_SUM": Words("相加", "sum", "几个定值番型相加，包含关系的不重复算"),
    # HuangfanMode
    "HUANGFAN_MODE_ONCE": Words("翻一次", "once", "不论荒几次，只加倍一次"),
    "HUANGFAN_MODE_PER_LEVEL": Words("每级一次", "per level", "荒几次就加倍几次"),
    # LiabilityMode
    "LIABILITY_MODE_NONE": Words("不承包", "no liability", "没有承包"),
    "LIABILITY_MODE_ADDITIVE": Words("承包另付", "liability in addition", "承包的一家在普通付款之外另付"),
    "LIABILITY_MODE_REPLACE": Words("承包代付", "liability instead", "承包的一家代替普通付款的人付"),
    "LIABILITY_MODE_SANKOU": Words("吃三口包五家", "sankou table", "按三口付款表"),
    # FlowerSource
    "FLOWER_SOURCE_FLOWER_TILE": Words("花牌", "flower tile", "一张花牌"),
    "FLOWER_SOURCE_SUITED_PUNG": Words("数牌刻子", "suited pung", "万筒条的刻子，明暗都算"),
    "FLOWER_SOURCE_WIND_PUNG": Words("风刻", "wind pung", "风牌刻子，明暗都算"),
    "FLOWER_SOURCE_DRAGON_PUNG": Words("字刻", "dragon pung", "中发白刻子，明暗都算"),
    "FLOWER_SOURCE_SUITED_EXPOSED_KONG": Words("数牌明杠", "suited exposed kong", "万筒条的明杠或加杠"),
    "FLOWER_SOURCE_SUITED_CONCEALED_KONG": Words("数牌暗杠", "suited concealed kong", "万筒条的暗杠"),
    "FLOWER_SOURCE_WIND_EXPOSED_KONG": Words("风明杠", "wind exposed kong", "风牌的明杠或加杠"),
    "FLOWER_SOURCE_WIND_CONCEALED_KONG": Words("风暗杠", "wind concealed kong", "风牌的暗杠"),
    "FLOWER_SOURCE_DRAGON_EXPOSED_KONG": Words("字明杠", "dragon exposed kong", "中发白的明杠或加杠"),
    "FLOWER_SOURCE_DRAGON_CONCEALED_KONG": Words("字暗杠", "dragon concealed kong", "中发白的暗杠"),
    # MeldKind
    "MELD_KIND_CHOW": Words("吃", "chow", "上家打出的牌组成顺子"),
    "MELD_KIND_PUNG": Words("碰", "pung", "别人打出的牌组成刻子"),
    "MELD_KIND_EXPOSED_KONG": Words("明杠", "exposed kong", "别人打出的第四张"),
    "MELD_KIND_ADDED_KONG": Words("加杠", "added kong", "碰后自己摸到第四张"),
    "MELD_KIND_CONCEALED_KONG": Words("暗杠", "concealed kong", "自己摸齐四张"),
    # Suit (advice: the suit of a flush path)
    "SUIT_CHARACTERS": Words("万", "characters", "万子"),
    "SUIT_DOTS": Words("筒", "dots", "筒子"),
    "SUIT_BAMBOO": Words("条", "bamboo", "条子"),
}

PROFILE_FIELD_WORDS: dict[str, Words] = {
    "name": Words("名称", "name", "规则的名字，不可覆盖"),
    "unit": Words("单位", "unit", "计分的单位"),
    "lazi_value": Words("喇子值", "value of 1 喇", "一喇（一勒）合多少单位：普通牌的封顶"),
    "ordinary_base": Words("底注", "base", "普通牌的底注花或底分"),
    "ordinary_lazi_threshold": Words("起喇门槛", "喇 threshold", "普通牌值（算番后）到此即算一喇；0 为不用"),
    "fixed_values": Words("定值番型", "fixed values", "有固定值的番型；0 使其成为普通番型"),
    "fan": Words("番数", "fan", "普通牌各番型的番数：每番翻一倍"),
    "floor_patterns": Words("保底番型", "floor patterns", "不足一勒算一勒的番型"),
    "qualifying_patterns": Words("可胡番型", "qualifying patterns", "允许胡牌的番型"),
    "combine_fixed": Words("定值合计", "combining fixed values", "几个定值番型如何合计"),
    "fan_on_fixed": Words("定值算番", "fan on fixed values", "定值牌是否也算番加倍"),
    "flower_values": Words("花值", "flower values", "每种来源的花数"),
    "huangfan_mode": Words("荒番方式", "荒番 mode", "荒番牌如何加倍"),
    "huangfan_multiplier": Words("荒番倍数", "荒番 multiplier", "荒番的倍数"),
    "dice_huangfan": Words("骰子荒番", "dice 荒番", "掷出这些点数时荒番次数增加"),
    "kaibao_throws": Words("开宝点数", "开宝 throws", "算开宝的骰子点数"),
    "kaibao_multiplier": Words("开宝倍数", "开宝 multiplier", "开宝的倍数"),
    "self_draw_share": Words("自摸份数", "self-draw share", "自摸时其余每家付几份 V"),
    "discard_share": Words("点炮份数", "discard share", "放炮的一家付几份 V"),
    "robbing_kong_share": Words("抢杠份数", "robbing-kong share", "被抢杠的一家付几份 V"),
    "liability_mode": Words("承包方式", "liability mode", "吃碰关系如何改变付款"),
    "liability_threshold": Words("承包门槛", "liability threshold", "从同一家吃碰几次成承包关系"),
    "liability_discard_share": Words("承包点炮份数", "liability discard share", "点炮胡时承包的一家付几份"),
    "liability_self_draw_share": Words("承包自摸份数", "liability self-draw share", "自摸时承包的一家付几份"),
    "liability_robbing_kong_share": Words("承包抢杠份数", "liability robbing-kong share", "抢杠胡时承包的一家付几份"),
    "sankou_self_draw_shares": Words(
        "三口自摸份数", "sankou self-draw shares", "三口自摸：按有关系的家数（0 到 3）每家付几份"
    ),
    "sankou_related_discarder_share": Words("三口放炮份数", "sankou related discarder", "有关系的一家放炮时独付几份"),
    "sankou_related_seat_share": Words("三口连带份数", "sankou related seat", "无关系的一家放炮时有关系的每家付几份"),
    "abandon_penalty": Words("逃跑罚分", "abandon penalty", "逃跑的一家输多少；0 为没有逃跑规则"),
}


# The values and fields of RULES.md section 14 (the rule families played today), the fields in
# the .proto's order. They join the tables above (a test holds those tables equal to the .proto).
FAMILY_ENUM_WORDS: dict[str, Words] = {
    # IllegalReason
    "ILLEGAL_REASON_NO_FLOWERS_SELF_DRAW_ONLY": Words(
        "无花果只能自摸", "no flowers: self-draw only", "没有花的牌只能自摸，不能胡别人打的牌或抢杠"
    ),
    "ILLEGAL_REASON_TOO_FEW_FLOWERS": Words("花不够", "too few flowers", "垃圾胡要有足够的花：自摸2花，点炮或抢杠3花"),
    "ILLEGAL_REASON_NOT_DECLARED": Words("未敲", "not knocked", "没有敲（报听）不能胡"),
    "ILLEGAL_REASON_TOO_FEW_FAN": Words("番不够", "too few fan", "一番和：番数不到起胡的番"),
    # LiabilityMode
    "LIABILITY_MODE_BAOSANKOU": Words("包三口", "one liable seat", "吃碰满三口的一家承包：自摸独付5份，自己放炮付3份"),
    "LIABILITY_MODE_CONTRACT": Words(
        "承包（竞赛规则）",
        "contract partners",
        "互相吃碰满数的两家为承包家：自摸每家承包付5份；点炮另付1份，未敲的放炮者全付",
    ),
    # EventKind
    "EVENT_KIND_DECLARE": Words("敲", "knock", "报听：随后打出的牌之后即听牌"),
}

FAMILY_PROFILE_FIELD_WORDS: dict[str, Words] = {
    "dragons_are_flowers": Words("中发白算花", "dragons are flowers", "敲麻：中发白是花牌，不是牌"),
    "ordinary_hand_wins": Words("垃圾胡可胡", "ordinary hand wins", "成形的牌没有可胡番型也能胡"),
    "fan_additive": Words("番数相加", "fan add up", "番数相加乘牌值（不是每番翻倍）；勒子牌每番加一勒"),
    "ordinary_base_fan": Words("兜底番", "base fan", "每手普通牌先有的番"),
    "shape_fan": Words("牌型番", "shape fan", "普通牌取最高的一个牌型番"),
    "cap_lazi_extra": Words("封顶加喇", "cap above 1 喇", "封顶是 1 加此数喇（勒）"),
    "cap_fixed_values": Words("勒子牌封顶", "cap on fixed values", "定值牌也封顶"),
    "seven_pairs": Words("七对", "seven pairs", "七小对算成形"),
    "all_honours_need_shape": Words("风一色要成形", "all honours need a shape", "风一色要四副一将或七对"),
    "no_flowers_self_draw_only": Words("无花果只能自摸", "no flowers: self-draw only", "没有花的牌只能自摸"),
    "earthly_self_draw_only": Words("地胡须自摸", "earthly needs a self-draw", "地胡只算自摸"),
    "eight_flowers_lists_concealed": Words("八花算门清", "eight flowers list concealed", "八花胡也算门清"),
    "huangfan_reset_after_win": Words("胡后荒番清零", "荒番 resets after a win", "有人胡牌后荒番数归零（不是减一）"),
    "huangfan_max_count": Words("荒番上限", "荒番 count limit", "流局后荒番数最多加到此数；0 为不限"),
    "multi_win_discarder_deals": Words(
        "一炮多响放炮者坐庄", "multi-win: discarder deals", "一炮多响后由放炮的一家坐庄"
    ),
    "liability_skips_kongs": Words("杠不算口", "kongs are no claims", "明杠不算吃碰口数，碰后加杠的也不再算"),
    "kong_bloom_needs_kong": Words("补花不算杠开", "kong bloom needs a kong", "只有杠后补的牌算杠开，补花后的不算"),
    "standard_shape_only": Words("只胡四副一将", "standard shape only", "只有四副一将算成形"),
    "no_flowers_value": Words("无花算花", "no flowers counts as", "没有花的牌算这么多花；0 为没有此规则"),
    "ordinary_min_flowers_self_draw": Words(
        "垃圾胡自摸花数", "rubbish hand: self-draw flowers", "没有可胡番型的牌自摸要的花数"
    ),
    "ordinary_min_flowers_discard": Words(
        "垃圾胡点炮花数", "rubbish hand: discard flowers", "没有可胡番型的牌点炮或抢杠要的花数"
    ),
    "max_fan": Words("封顶番", "fan cap", "牌值最多用几番；0 为不限"),
    "min_fan": Words("起胡番", "least fan to win", "胡牌至少要几番（一番和）；0 为不限"),
    "win_requires_declaration": Words("须敲才胡", "knock before winning", "敲（报听）后才能胡"),
    "liability_threshold_unconditional": Words(
        "无条件承包口数", "claims that always relate", "承包（竞赛）：吃碰这么多口不看牌型也成承包；0 为都看牌型"
    ),
    "uncapped": Words("不封顶", "no cap", "牌值不封顶"),
}

# An event kind is never shown as a value (records are read, not printed): its words serve `label`.
ENUM_WORDS.update((name, words) for name, words in FAMILY_ENUM_WORDS.items() if not name.startswith("EVENT_KIND_"))
PROFILE_FIELD_WORDS.update(FAMILY_PROFILE_FIELD_WORDS)


class Term(NamedTuple):
    zh: str
    en: str


# The other words a person reads beside the numbers: the headings and labels of the CLI's
# tables (`clients.report`, `clients.profile_report`), its error lines, and the phrases that
# say why a liable seat pays (`rules_core.liability_words`, which the explorer asks for too).
TERMS: dict[str, Term] = {
    "profile": Term("规则", "Profile"),
    "unit": Term("单位", "unit"),
    "request": Term("请求", "request"),
    "seat": Term("座位", "seat"),
    "legal": Term("合法", "legal"),
    "not_legal": Term("不合法", "not legal"),
    "no_pattern": Term("无番型", "no pattern"),
    "flowers": Term("花", "flowers"),
    "why": Term("原因", "why"),
    "fan": Term("番", "fan"),
    "value_per_share": Term("每份牌值", "value per share V"),
    "before_multipliers": Term("倍数前", "before multipliers"),
    "payments": Term("付款", "Payments"),
    "penalty": Term("罚分", "Penalty"),
    "loses": Term("输", "loses"),
    "seat_deltas": Term("输赢", "Seat deltas"),
    "huangfan_after_dice": Term("掷骰后荒番数", "荒番 count after the dice"),
    "next_hand": Term("下一手", "Next hand"),
    "dealer": Term("庄家", "dealer"),
    "huangfan_count": Term("荒番数", "荒番 count"),
    "no_next_hand": Term("无人合法胡牌，本手继续", "none: no claimed win is legal, the hand goes on"),
    "claimed": Term("吃碰", "claimed"),
    "claims_unit": Term("口", "times"),
    "claims_unit_one": Term("口", "time"),
    "pays_twice": Term("双向承包，付两份", "pays twice: the claims run both ways"),
    # RULES.md section 14: how 番 act, and who pays under 包三口 and 承包
    "fan_add_up": Term("番相加", "fan add up"),
    "fan_double": Term("番翻倍", "each fan doubles"),
    "fan_on_fixed_add": Term("勒子牌型每番加", "fixed value, each fan adds"),
    "fan_at_most": Term("番数封顶", "fan used at most"),
    "baosankou_liable": Term("包三口：一家赔付", "包三口: one liable seat pays"),
    "contract_partners": Term("承包：互为承包方", "承包: contract partners"),
    "pattern_kept": Term("副露仍可成碰碰和、混一色或清一色", "its melds keep a pattern"),
    "not_knocked_pays_all": Term("未敲，包付全部", "had not knocked: pays every share"),
    "not_knocked_no_wait": Term("未敲，不能胡牌", "has not knocked, and may win only once it has"),
    "winning_tiles": Term("胡张", "winning tile(s)"),
    "on_a_discard": Term("点炮胡", "On a discard"),
    "by_self_draw": Term("自摸胡", "By self-draw"),
    "yes": Term("是", "yes"),
    "no": Term("否", "no"),
    "none": Term("无", "none"),
    "the_server": Term("服务器", "the server"),
    # shmj replay's story of a hand record
    "record": Term("牌谱", "Record"),
    "events": Term("步", "events"),
    "is_dealt": Term("配牌", "is dealt"),
    "draws": Term("摸牌", "draws"),
    "draws_flower": Term("补花", "draws flower"),
    "discards": Term("打出", "discards"),
    "chows": Term("吃", "chows"),
    "pungs": Term("碰", "pungs"),
    "kongs": Term("明杠", "kongs"),
    "adds_to_its_pung": Term("加杠", "adds to its pung"),
    "concealed_kong": Term("暗杠", "lays down a concealed kong of"),
    "claims_a_win": Term("胡牌", "claims a win"),
    "wall_exhausted": Term("流局", "the wall is exhausted"),
    "leaves": Term("逃跑", "leaves the table"),
    "knocks": Term("敲", "knocks"),
    "on_the_last_tile": Term("海底捞月", "on the wall's last tile"),
    "knocked_seats": Term("已敲", "knocked"),
    "could_have_won": Term("漏胡", "could have won on"),
    "and_passed": Term("放过", "and passed"),
    "a_legal_win": Term("合法胡牌", "a legal win"),
    "locked_until": Term("锁定至", "locked until it"),
    "any_kong": Term("杠", "kongs"),
    "at_event": Term("步", "at event"),
    "locked_to_the_end": Term("锁定至本手结束", "locked to the end of the hand"),
    "derived_request": Term("推得的请求", "Derived request"),
    "from_seat": Term("放炮", "from seat"),
    "on_tile": Term("胡张", "on"),
    "locked": Term("漏胡锁定", "locked"),
    "replacement_draw": Term("杠开", "replacement draw"),
    "first_go_around": Term("第一巡", "first go-around"),
    "recorded_deltas": Term("记录的输赢", "Recorded deltas"),
    # shmj rescore's summary and --compare report
    "lines_this_run": Term("本次行数", "lines this run"),
    "records_this_run": Term("本次条数", "records"),
    "skipped_by_resume": Term("续跑跳过", "skipped by --resume"),
    "output_holds": Term("输出共有", "the output holds all"),
    "lines": Term("行", "lines"),
    "settled": Term("已结算行", "lines settled"),
    "rejected": Term("被拒行", "rejected"),
    "claimed_wins": Term("所报胡牌", "their claimed wins"),
    "mismatched_records": Term("记录与结算不符的牌谱", "hand record(s) whose recorded deltas differ"),
    "summary": Term("摘要", "summary"),
    "parts": Term("分块", "parts"),
    "matched_changed": Term("有变化", "matched records changed"),
    "legality_changed": Term("合法性", "in legality"),
    "value_changed": Term("牌值", "in value"),
    "seat_deltas_changed": Term("输赢", "in their seat deltas"),
    "rules_changed": Term("规则不同", "settled under other rules"),
    "by_outcome": Term("按结果", "by outcome"),
    "by_pattern": Term("按番型", "by pattern"),
    "report": Term("报告", "report"),
    "earlier_unreadable": Term("无法读取的旧结果行", "earlier line(s) unreadable, left out"),
    "first": Term("首个", "first"),
    # shmj loadtest's line
    "sent": Term("已发送", "sent"),
    "completed": Term("已完成", "completed"),
    "errors": Term("错误", "errors"),
    "latency_ms": Term("延迟（毫秒）", "latency ms"),
    "plot": Term("图", "plot"),
    "match_the_settlement": Term("与结算相符", "match the settlement"),
    "differ_at_seats": Term("不符的座位", "differ at seat(s)"),
    "base": Term("基于", "based on"),
    "house": Term("自定规则", "house profile"),
    "built_in": Term("内置规则", "built-in profile"),
    "house_profiles": Term("自定规则", "house profile(s)"),
    "all_valid": Term("全部有效", "all valid"),
    "problems": Term("处问题", "problem(s)"),
    "files": Term("个文件", "file(s)"),
    "directory_unreadable": Term("目录无法读取", "the directory cannot be read"),
    "server_refuses_directory": Term("服务器会拒绝加载此目录", "a server refuses the directory"),
    "server_refuses_it": Term("服务器会拒绝加载", "a server refuses it"),
    "rules_digest": Term("规则摘要", "Rules digest"),
    "not_used": Term("不用", "not used"),
    "no_abandon_rule": Term("没有逃跑规则", "no abandon rule"),
    "times_v": Term("份", "× V"),
    "related_seats": Term("有关系的家数", "related seats"),
    "claims_from_one_seat": Term("口", "claims from one seat"),
    "more_huangfan": Term("荒番数", "荒番 count"),
    "no_limit": Term("不限", "no limit"),
    "cap_is": Term("封顶", "the cap is"),
    # shmj advise and shmj review (RULES.md section 15)
    "shanten": Term("向听数", "Shanten"),
    "ready": Term("听牌", "ready"),
    "dead_holding": Term("死手", "dead holding"),
    "no_path": Term("这些副露下没有可胡的路线", "no legal win can be reached with these melds"),
    "paths": Term("胡牌路线", "Paths"),
    "ordinary_path": Term("垃圾胡", "Ordinary hand"),
    "useful_tiles": Term("有效牌", "Useful tiles"),
    "live": Term("剩余张数", "live"),
    "total": Term("合计", "total"),
    "waits": Term("听牌", "Waits"),
    "live_value": Term("剩余价值", "live value"),
    "discard_tile": Term("打出", "Discard"),
    "shanten_after": Term("打后向听", "shanten after"),
    "best": Term("最佳", "best"),
    "discards_made": Term("打牌", "discards"),
    "among_the_best": Term("最佳打法", "among the best"),
    "backward": Term("退向", "backward"),
    "forced_discards": Term("听后摸打", "forced"),
    "dead_discards": Term("死手打牌", "dead"),
    "passes": Term("漏胡", "passes"),
    "not_among_the_best": Term("非最佳打牌", "Discards not among the best"),
    "best_instead": Term("最佳应打", "best"),
    "all_among_the_best": Term("每张都是最佳打法", "every discard was among the best"),
    # shmj review -o's summary
    "reviewed": Term("已复盘", "records reviewed"),
    "failed": Term("失败", "failed"),
    "of_discards": Term("占打牌", "of discards"),
}


# What a failed call's status means, for the CLI's error lines (``shmj: invalid request 请求有误
# (INVALID_ARGUMENT)``: the words first, the code kept in parentheses for support).
STATUS_WORDS: dict[str, Term] = {
    "CANCELLED": Term("已取消", "cancelled"),
    "UNKNOWN": Term("未知错误", "unknown error"),
    "INVALID_ARGUMENT": Term("请求有误", "invalid request"),
    "DEADLINE_EXCEEDED": Term("超时", "no answer in time"),
    "NOT_FOUND": Term("未找到", "not found"),
    "ALREADY_EXISTS": Term("已存在", "already exists"),
    "PERMISSION_DENIED": Term("无权限", "permission denied"),
    "RESOURCE_EXHAUSTED": Term("服务器繁忙或请求过大", "server busy or request too large"),
    "FAILED_PRECONDITION": Term("前提条件不符", "precondition failed"),
    "ABORTED": Term("已中止", "aborted"),
    "OUT_OF_RANGE": Term("超出范围", "out of range"),
    "UNIMPLEMENTED": Term("服务器不支持", "not supported by the server"),
    "INTERNAL": Term("服务器内部错误", "server error"),
    "UNAVAILABLE": Term("无法连接服务器", "server unavailable"),
    "DATA_LOSS": Term("数据丢失", "data lost"),
    "UNAUTHENTICATED": Term("未认证", "not authenticated"),
}


# What `shmj health` reads back (grpc.health.v1's ServingStatus), said for a person.
SERVING_WORDS: dict[str, Term] = {
    "UNKNOWN": Term("状态未知", "status unknown"),
    "SERVING": Term("服务中", "serving"),
    "NOT_SERVING": Term("暂停服务", "not serving"),
    "SERVICE_UNKNOWN": Term("无此服务", "no such service"),
}


def term(key: str) -> str:
    """``Payments 付款``: a term in English then Chinese, as the CLI's tables print it."""
    found = TERMS[key]
    return f"{found.en} {found.zh}"


def label(name: str) -> str:
    """``自摸 self-draw`` for an enum's JSON name; the name itself for one without words."""
    words = ENUM_WORDS.get(name) or FAMILY_ENUM_WORDS.get(name)
    return f"{words.zh} {words.en}" if words else name
