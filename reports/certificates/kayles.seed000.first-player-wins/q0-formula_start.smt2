; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let (($x36923 (or (and (distinct true true) true) (and true (not (= (= 0 n) (= 0 (+ n 12))))))))
(let (($x122758 (>= n 71)))
(and $x122758 $x36923))))
(check-sat)
