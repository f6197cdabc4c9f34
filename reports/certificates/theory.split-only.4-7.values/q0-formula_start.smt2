; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x248086 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x168554 (= ?x248086 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x44431 (>= n 1)))
(and $x44431 (or (and (distinct true true) true) (and true (not $x168554))))))))
(check-sat)
