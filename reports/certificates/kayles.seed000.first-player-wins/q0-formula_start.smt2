; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let (($x96006 (or (and (distinct true true) true) (and true (not (= (= 0 n) (= 0 (+ n 12))))))))
(let (($x275094 (>= n 71)))
(and $x275094 $x96006))))
(check-sat)
